"""What docs/protocol.md says, read mechanically: its message examples, its error codes, the
keys of the snapshot's and the tournament's state. The tests hold the server to it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"


def text() -> str:
    return DOC.read_text(encoding="utf-8")


def section(title: str) -> str:
    """The text of the ``## title`` section, up to the next ``## `` heading."""
    body = text()
    start = body.index(f"\n## {title}\n")
    end = body.find("\n## ", start + 1)
    return body[start : end if end >= 0 else len(body)]


def json_examples() -> list[dict[str, Any]]:
    """Every message example of the page: the JSON maps with a ``"t"`` in ```json blocks
    (one map per line, or one map over several lines)."""
    out: list[dict[str, Any]] = []
    for block in re.findall(r"```json\n(.*?)```", text(), re.S):
        try:
            found = [json.loads(block)]
        except json.JSONDecodeError:
            found = [json.loads(line) for line in block.splitlines() if line.strip()]
        out += [x for x in found if isinstance(x, dict) and "t" in x]
    return out


def error_codes() -> set[str]:
    """The codes of the tables of "Error codes" (first column, between backticks)."""
    codes = re.findall(r"^\| `([a-z_.]+)` \|", section("Error codes"), re.M)
    return set(codes)


def snapshot_keys() -> set[str]:
    """The keys of the snapshot's ``state`` table (first column; ``?`` marks optional)."""
    body = section("Server → client")
    start = body.index("Keys of `state`")
    table = body[start : body.index("```json", start)]
    keys: set[str] = set()
    for cell in re.findall(r"^\| ([^|]+) \|", table, re.M):
        keys |= set(re.findall(r"`([a-z_]+)\??`", cell))
    return keys


def tournament_state_keys() -> set[str]:
    """The keys the paragraph on the ``tournament`` state names (between backticks)."""
    body = section("Tournaments: register, follow, move, direct")
    start = body.index("The `tournament` state (`state` map)")
    paragraph = body[start : body.index("\n\n", start)]
    return set(re.findall(r"`([a-z_]+)`", paragraph))
