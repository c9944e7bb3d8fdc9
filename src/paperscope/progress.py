"""How long work reports how far it got: a callable taking (stage, done, total), e.g. the CLI's progress bars."""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[str, int, int], None]
