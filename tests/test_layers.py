"""The layers' contracts (STYLE.md: no upward or circular imports, written as contracts;
issue 26: the gateway decodes, authenticates, routes and encodes; the league service owns
membership, events and the season capital). Read from the source with ``ast``: a contract
broken by a new import fails here, naming the file and the line."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _modules(package: str) -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        yield path, ast.parse(path.read_text("utf-8"), str(path))


def _imports(tree: ast.Module) -> Iterator[tuple[int, str, bool]]:
    """Every imported module name, its line, and whether it sits under ``TYPE_CHECKING``."""
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            guarded |= {id(child) for child in ast.walk(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, id(node) in guarded
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module, id(node) in guarded


def _broken(package: str, forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path, tree in _modules(package)
        for line, name, _ in _imports(tree)
        if any(name == f or name.startswith(f"{f}.") for f in forbidden)
    ]


def test_the_gateway_reaches_the_leagues_through_the_league_service_only() -> None:
    assert _broken("server.gateway", ("server.league",)) == []


def test_the_league_service_never_imports_the_gateway() -> None:
    assert _broken("server.league_service", ("server.gateway",)) == []


def test_the_pure_league_rules_import_nothing_above_them() -> None:
    upward = ("server.gateway", "server.league_service", "server.table", "server.tournament")
    assert _broken("server.league", upward) == []


def test_the_table_and_the_engine_import_nothing_above_them() -> None:
    assert _broken("server.table", ("server.gateway", "server.league_service")) == []
    above_engine = ("server.gateway", "server.table", "server.league", "server.league_service")
    assert _broken("server.engine", above_engine) == []


def test_no_file_outside_the_table_reaches_into_a_tables_core() -> None:
    """``actor.core`` is the pure table a TableActor owns: others use the actor's API."""
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for package in ("server", "bots", "protocol")
        for path, tree in _modules(package)
        if not path.is_relative_to(ROOT / "server" / "table")
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "core"
    ]
    assert found == []


def test_the_league_service_has_no_type_checking_import_of_a_caller() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for path, tree in _modules("server.league_service")
        for line, name, guarded in _imports(tree)
        if guarded
    ]
    assert found == []


def test_no_module_imports_under_type_checking() -> None:
    """Issue 30: an import hidden under ``TYPE_CHECKING`` was how a part named its caller (the
    table's parts their Table, the hand's mixins each other). None is left in the server, the
    protocol or the bots: a part names what it needs of another as a Protocol of its own."""
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for package in ("server", "protocol", "bots")
        for path, tree in _modules(package)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
    ]
    assert found == []
