"""Golden transcripts of the table layer (see transcripts.py and transcript_driver.py).

Each scenario is replayed and what every client received, every director report and the
table's summary at every checkpoint are compared with ``golden/<scenario>.json``. A mismatch
names the scenario, the client, the index and the first differing message (both sides).

Regenerate (after a deliberate change of behaviour, e.g. a known defect fixed)::

    BRASSEUR_RECORD_TRANSCRIPTS=1 python3 -m pytest tests/table/test_golden_transcripts.py

The golden files were recorded on commit 79d74e3, the last one before the table redesign
(``TableActor`` as it was); the known defects they contain are listed in transcripts.py.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from .transcript_driver import Driver
from .transcripts import SCENARIOS

GOLDEN = Path(__file__).parent / "golden"
RECORD = os.environ.get("BRASSEUR_RECORD_TRANSCRIPTS") == "1"


def _ordered(value: Any) -> Any:
    """Keys sorted at every level, ``t`` first in a message."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (k != "t", k))
        return {k: _ordered(value[k]) for k in keys}
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    return value


def _line(value: Any) -> str:
    return json.dumps(_ordered(value), ensure_ascii=False)


def dumps(transcript: dict[str, Any]) -> str:
    """Pretty and stable: one message, report or checkpoint per line."""
    out = ["{"]
    sections = []
    clients = transcript["clients"]
    lines = []
    for name in sorted(clients):
        body = ",\n".join(f"      {_line(x)}" for x in clients[name])
        lines.append(f"    {json.dumps(name)}: [\n{body}\n    ]" if body else f'    "{name}": []')
    sections.append('  "clients": {\n' + ",\n".join(lines) + "\n  }")
    for key in ("director", "steps"):
        body = ",\n".join(f"    {_line(x)}" for x in transcript[key])
        sections.append(f'  "{key}": [\n{body}\n  ]' if body else f'  "{key}": []')
    out.append(",\n".join(sections))
    out.append("}")
    return "\n".join(out) + "\n"


async def run(name: str, tmp_path: Path) -> dict[str, Any]:
    d = Driver(tmp_path)
    try:
        await SCENARIOS[name](d)
    finally:
        await d.close()
    result: dict[str, Any] = json.loads(json.dumps(d.result()))
    return result


def _when(steps: list[dict[str, Any]], count: str, name: str | None, index: int) -> str:
    """The checkpoint before which item ``index`` had arrived."""
    for step in steps:
        seen = step[count] if name is None else step[count].get(name, 0)
        if seen > index:
            return f"before checkpoint {step['label']!r}"
    return "after the last checkpoint"


def _first_diff(want: list[Any], got: list[Any]) -> int | None:
    for i, (a, b) in enumerate(zip(want, got, strict=False)):
        if a != b:
            return i
    if len(want) != len(got):
        return min(len(want), len(got))
    return None


def _show(items: list[Any], index: int) -> str:
    return _line(items[index]) if index < len(items) else "(nothing: the list ends here)"


def difference(scenario: str, want: dict[str, Any], got: dict[str, Any]) -> str | None:
    """The earliest difference, in words, or None."""
    found: list[tuple[int, str]] = []  # (checkpoint index, text)
    steps = got["steps"]

    def rank(count: str, name: str | None, index: int) -> int:
        for k, step in enumerate(steps):
            seen = step[count] if name is None else step[count].get(name, 0)
            if seen > index:
                return k
        return len(steps)

    wc, gc = want["clients"], got["clients"]
    for name in sorted(set(wc) | set(gc)):
        a, b = wc.get(name, []), gc.get(name, [])
        i = _first_diff(a, b)
        if i is not None:
            text = (
                f"client {name!r}, message #{i} ({_when(steps, 'received', name, i)}; "
                f"{len(a)} expected, {len(b)} received)\n"
                f"  expected: {_show(a, i)}\n  actual:   {_show(b, i)}"
            )
            found.append((rank("received", name, i), text))
    i = _first_diff(want["director"], got["director"])
    if i is not None:
        text = (
            f"director report #{i} ({_when(steps, 'reports', None, i)})\n"
            f"  expected: {_show(want['director'], i)}\n  actual:   {_show(got['director'], i)}"
        )
        found.append((rank("reports", None, i), text))
    i = _first_diff(want["steps"], got["steps"])
    if i is not None:
        text = (
            f"checkpoint #{i}\n  expected: {_show(want['steps'], i)}\n"
            f"  actual:   {_show(got['steps'], i)}"
        )
        found.append((i, text))
    if not found:
        return None
    found.sort(key=lambda x: x[0])
    others = "".join(f"\n  also: {text.splitlines()[0]}" for _, text in found[1:])
    return (
        f"scenario {scenario!r} differs from golden/{scenario}.json: {found[0][1]}{others}\n"
        "(BRASSEUR_RECORD_TRANSCRIPTS=1 rewrites the golden files)"
    )


@pytest.mark.asyncio
@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
async def test_golden_transcript(scenario: str, tmp_path: Path) -> None:
    got = await run(scenario, tmp_path)
    path = GOLDEN / f"{scenario}.json"
    if RECORD:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(dumps(got), encoding="utf-8")
        return
    assert path.exists(), f"no {path}: record it with BRASSEUR_RECORD_TRANSCRIPTS=1"
    want = json.loads(path.read_text(encoding="utf-8"))
    problem = difference(scenario, want, got)
    if problem is not None:
        pytest.fail(problem, pytrace=False)
