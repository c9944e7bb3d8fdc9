"""The one error a user sees: a file, a line and what is wrong with it."""

from __future__ import annotations


class PaperscopeError(Exception):
    """An error worth one line on stderr; anything else is a bug."""


class InputError(PaperscopeError):
    def __init__(self, path: str, line: int | None, problem: str) -> None:
        self.path, self.line, self.problem = path, line, problem
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {problem}")
