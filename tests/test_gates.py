"""The shape gates of .ci/run fail on a violation (issue 30): each is shown failing on purpose
on a copy of the sources with one bad line added, and passing on the copy as it is.

- ruff's flake8-self rule (SLF001): no access to another object's private members;
- import-linter's contracts (pyproject ``[tool.importlinter]``): the server's layers, the
  protocol and the bots never importing the server, no import circle among a package's
  modules (TYPE_CHECKING imports included)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = "from importlinter.cli import lint_imports_command; lint_imports_command()"


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the packages the gates read, and the configuration."""
    copy = tmp_path_factory.mktemp("gates")
    for package in ("server", "protocol", "bots"):
        shutil.copytree(
            ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    return copy


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=120)


def lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    # the copy first on the path: the contracts are checked on its modules, not the repo's
    return run([sys.executable, "-c", f"import sys; sys.path.insert(0, '.'); {LINT_IMPORTS}"], cwd)


def with_line(path: Path, line: str) -> str:
    """Add ``line`` at the end of ``path``; return the text before, to put back."""
    before = path.read_text()
    path.write_text(before + "\n" + line + "\n")
    return before


def test_the_import_contracts_hold_on_the_sources_as_they_are(sources: Path) -> None:
    out = lint_imports(sources)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        # the engine importing the gateway: upward
        ("server/engine/cards.py", "import server.gateway.app", "layers"),
        # a bot importing the server instead of speaking the protocol
        ("bots/strategies.py", "import server.table.core", "never import the server"),
        # a new circle in the table, under TYPE_CHECKING as today's are
        (
            "server/table/seats.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import server.table.actor",
            "No import circle",
        ),
    ],
)
def test_an_import_contract_broken_on_purpose_fails(
    sources: Path, module: str, line: str, contract: str
) -> None:
    path = sources / module
    assert path.exists(), module
    before = with_line(path, line)
    try:
        out = lint_imports(sources)
    finally:
        path.write_text(before)
    assert out.returncode != 0, out.stdout
    assert contract in out.stdout and "BROKEN" in out.stdout, out.stdout


def test_reaching_into_private_members_fails_ruff(sources: Path) -> None:
    path = sources / "server" / "league_service" / "standings.py"
    ruff = [sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "SLF", str(path)]
    clean = run(ruff, sources)
    assert clean.returncode == 0, clean.stdout
    before = with_line(
        path, "def _peek(x: object) -> object:\n    return x._hidden  # type: ignore"
    )
    try:
        out = run(ruff, sources)
    finally:
        path.write_text(before)
    assert out.returncode != 0 and "SLF001" in out.stdout, out.stdout
    # and the rule is on in the configuration .ci/run uses (not only when asked for)
    assert '"SLF"' in (sources / "pyproject.toml").read_text()
