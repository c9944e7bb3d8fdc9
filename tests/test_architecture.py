"""The import picture of docs/architecture.md, held true: no cycles between modules or packages (imports
inside functions and under TYPE_CHECKING count), no import the design forbids, no SQL outside store/."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src"
PROJECT = "paperscope"

# What each part of the package may import, besides itself (a part is a top-level module or subpackage;
# "" is the package's own __init__). Every import of the project's code must be allowed here, so a new
# arrow is a decision written into this table and into docs/architecture.md.
ALLOWED: dict[str, set[str]] = {
    "": set(),
    "model": set(),
    "errors": set(),
    "progress": set(),
    "atomic": set(),
    "workers": set(),  # worker processes that end with their parent
    "normalize": {"model", "errors"},
    "extract": {"normalize", "model", "errors"},
    "sources": {"normalize", "model", "errors"},
    "dedupe": {"normalize", "model"},
    "index": {"normalize", "model", "errors", "atomic"},
    "assemble": {"", "dedupe", "extract", "normalize", "model"},
    "store": {"", "index", "dedupe", "model", "errors", "progress"},
    "citekeys": {"store", "normalize", "model"},
    "pipeline": {
        *("", "assemble", "citekeys", "dedupe", "sources", "store", "normalize", "model", "errors", "progress"),
        "workers",
    },
    "embed": {"index", "store", "progress", "workers"},  # many vectors are encoded in worker processes
    "copying": {"store", "errors", "progress"},
    "export": {"", "dedupe", "normalize", "model", "errors", "atomic"},
    "analyze": {"index", "model", "progress"},
    "fetch": {"errors", "progress", "atomic"},
    "library": {
        *("", "analyze", "citekeys", "embed", "export", "index", "pipeline", "store", "model", "errors"),
        *("atomic", "progress"),
    },
    "personal": {"library", "analyze", "index", "store", "model", "errors"},
    "responses": {"library", "personal", "analyze", "index", "normalize", "model"},
    # What the JSON API and the web pages share: filter parameters, security, the request's library.
    "face": {"library", "personal", "index", "model", "errors"},
    "api": {"", "face", "library", "personal", "responses", "export", "index", "store", "model", "errors", "normalize"},
    "web": {"face", "library", "personal", "responses", "analyze", "export", "index", "model", "errors"},
    "library_pool": {"library"},  # the libraries a server process answers from
    "app": {"api", "web", "face", "library", "library_pool", "store", "errors"},
    "serving": {"app", "workers", "errors"},  # serve: one process, or worker processes each on its own socket
    "cli": {
        *("analyze", "app", "copying", "errors", "export", "fetch", "index", "library", "model"),
        *("normalize", "personal", "pipeline", "responses", "sources", "store", "progress", "atomic", "face", ""),
        "serving",
    },
    "__main__": {"cli"},
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted((SOURCE / PROJECT).rglob("*.py"))}


def _imported(name: str, path: Path) -> set[str]:
    """The project's modules that `name` imports anywhere in its file."""
    modules = _modules()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # `from pkg import sub` imports the submodule; `from pkg import name` imports pkg itself.
            submodules = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in modules]
            targets = submodules if len(submodules) == len(node.names) else [base, *submodules]
        else:
            continue
        found.update(target for target in targets if target in modules and target != name)
    return found


@cache
def _graph() -> dict[str, frozenset[str]]:
    return {name: frozenset(_imported(name, path)) for name, path in _modules().items()}


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _cycles(graph: dict[str, set[str]] | dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components with more than one member (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_reader_finds_imports_of_every_kind(tmp_path: Path) -> None:
    assert "paperscope.store" in _graph()["paperscope.pipeline"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_imports_another_in_a_cycle() -> None:
    assert _cycles(_graph()) == []


def test_no_package_imports_another_in_a_cycle() -> None:
    parts: dict[str, set[str]] = {}
    for module, imported in _graph().items():
        parts.setdefault(_part(module), set()).update(_part(m) for m in imported if _part(m) != _part(module))
    assert _cycles(parts) == []


def test_every_part_is_placed_in_the_picture() -> None:
    assert {_part(module) for module in _modules()} <= set(ALLOWED)


@pytest.mark.parametrize("module", sorted(_modules()))
def test_imports_follow_the_picture(module: str) -> None:
    part = _part(module)
    forbidden = {m for m in _graph()[module] if _part(m) != part and _part(m) not in ALLOWED.get(part, set())}
    assert forbidden == set(), f"{module} may not import {sorted(forbidden)} (docs/architecture.md)"


def test_no_sql_outside_the_store() -> None:
    running_sql = []
    for name, path in _modules().items():
        if _part(name) == "store":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"execute", "executemany", "executescript"}
            ):
                running_sql.append(f"{path.relative_to(SOURCE)}:{node.lineno}")
    assert running_sql == []
