"""The documentation says what the code does.

- docs/protocol.md's "Error codes" lists every code the server and protocol sources can send
  (found by reading them: ``ErrorCode.X`` of the protocol and, prefixed ``rule.``, of the
  engine; ``tournament.`` + each refusal reason; literal ``"tournament.x"`` and
  ``"account.x"`` and ``"league.x"`` codes), and no
  code they cannot send.
- Every message example of docs/protocol.md is a valid message of its direction (no field
  the message does not have, none missing, the right types and limits).
- README.md names every option that ``python -m server --help`` (and ``tournament --help``)
  shows.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from protocol import CLIENT_MESSAGES, SERVER_MESSAGES
from protocol.codec import from_wire
from protocol.errors import ErrorCode
from server.cash import Refusal
from server.engine.errors import ErrorCode as RuleCode
from server.tournament.decisions import RefusalReason

from . import docs

SOURCES = [
    *sorted((docs.ROOT / "server").rglob("*.py")),
    *sorted((docs.ROOT / "protocol").rglob("*.py")),
]


def codes_in_sources() -> set[str]:
    """Every error code the server's and the protocol's code can put on the wire."""
    found: set[str] = set()
    for path in SOURCES:
        source = path.read_text(encoding="utf-8")
        engine = path.is_relative_to(docs.ROOT / "server" / "engine")
        for name in re.findall(r"\bErrorCode\.([A-Z_]+)", source):
            found.add(f"rule.{RuleCode[name].value}" if engine else ErrorCode[name].value)
        for name in re.findall(r"\bRefusalReason\.([A-Z_]+)", source):
            found.add(f"tournament.{RefusalReason[name].value}")
        for name in re.findall(r"\bRefusal\.([A-Z_]+)", source):
            found.add(Refusal[name].value)  # a cash table's desk (server/cash/book.py)
        found |= set(re.findall(r"\"((?:tournament|account|league)\.[a-z_]+)\"", source))
    return found


def test_the_error_codes_section_lists_every_code_the_server_sends_and_no_other() -> None:
    sent = codes_in_sources()
    documented = docs.error_codes()
    assert sent - documented == set(), "sent by the server, missing from docs/protocol.md"
    assert documented - sent == set(), "documented, but nothing sends it"
    # every stable code of protocol/errors.py is in use (none left over from an old meaning)
    assert {code.value for code in ErrorCode} <= sent


def test_the_codes_have_one_meaning_each() -> None:
    """The reworked overlaps of issue 13: a map without ``t`` is a bad frame, an unknown
    table is ``unknown_table``, ``stale_hand`` is a wrong hand number only."""
    body = docs.section("Error codes")
    rows = dict(re.findall(r"^\| `([a-z_.]+)` \| (.+) \|$", body, re.M))
    assert "without `t`" in rows["bad_frame"]
    assert "no betting round" not in rows["stale_hand"]
    assert "betting round" in rows["rule.not_betting"]
    assert "decision" in rows["stale_decision"]


@pytest.mark.parametrize("example", docs.json_examples(), ids=lambda e: f"{e['t']}-{sorted(e)[:4]}")
def test_every_message_example_is_a_valid_message(example: dict[str, object]) -> None:
    kind = example["t"]
    registry = CLIENT_MESSAGES if kind in CLIENT_MESSAGES else SERVER_MESSAGES
    assert kind in registry, f"no message {kind!r}"
    from_wire(example, registry)  # raises on an unknown field, a missing one, a bad value


def test_the_examples_cover_the_decision_and_pots_fields() -> None:
    examples = docs.json_examples()
    assert any(e["t"] == "turn" and "decision" in e for e in examples)
    assert any(e["t"] == "act" and "decision" in e for e in examples)
    assert any(e["t"] == "board" and "pots" in e for e in examples)
    snapshot = next(e for e in examples if e["t"] == "snapshot")
    assert "decision" in snapshot["state"]["menu"]  # type: ignore[index]


def _options(*command: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-m", "server", *command, "--help"],
        cwd=docs.ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    return set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", out)) - {"--help"}


def test_the_readme_names_every_command_line_option() -> None:
    readme = (docs.ROOT / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", readme))
    serve, tournament = _options(), _options("tournament")
    assert len(serve) > 20 and {"--id", "--data"} <= tournament
    assert serve - named == set(), "python -m server --help"
    assert tournament - named == set(), "python -m server tournament --help"
    assert "tournament create" in readme and "tournament link" in readme
