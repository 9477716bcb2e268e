"""Draw cash sessions of the session replay (``game: draw``, docs/replay.md): what is
malformed (exit 2) and the command line on the golden draw session."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from server.engine.replay import ScenarioError
from server.table.session_steps import parse_session

GOLDEN = Path(__file__).parent / "sessions" / "fpc-draw-cash-table.json"
ROOT = Path(__file__).resolve().parents[2]


def session(game: str = "draw", hand: dict[str, Any] | None = None, **top: Any) -> Any:
    return {
        "profile": "fpc",
        "game": game,
        "table": {"seats": 6, "blinds": {"sb": 50, "bb": 100}},
        "button": 1,
        "steps": [{"sit": {"name": "A", "seat": 1, "buy_in": 5000}}, {"hand": hand or {}}],
        **top,
    }


@pytest.mark.parametrize(
    "doc",
    [
        session(hand={"board": ["2c", "3c", "4c"]}),  # draw has no board
        session(hand={"hole": {"A": ["2c", "3c", "4c", "5c", "6c", "7c"]}}),
        session(hand={"hole": {"A": ["2c"]}, "stub": ["2c"]}),  # a card given twice
        session(hand={"runs": 2}),
        session("cash", hand={"stub": ["2c"]}),  # a stub at hold'em
        session(hand={"inputs": [{"player": "A", "draw": ["2c"], "say": {"verb": "call"}}]}),
        session(structure="limit"),
        session("cash", structure="pot_limit"),
    ],
)
def test_malformed_draw_sessions_are_refused(doc: Any) -> None:
    with pytest.raises(ScenarioError):
        parse_session(doc)


def test_the_command_line_plays_the_golden_draw_session() -> None:
    doc = json.loads(GOLDEN.read_text())
    run = subprocess.run(
        [sys.executable, "-m", "server.table.replay", "-"],
        input=json.dumps(doc["session"]),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    first = out["steps"][3]
    assert first["draws"] == [
        {"player": "B", "count": 2},
        {"player": "C", "count": 0},
        {"player": "A", "count": 3},
    ]
    # the draw capital (fpc: 50,000) less A's cave of 5,000, plus the 4,200 he cashed out
    assert out["capital"]["A"] == 49_200
