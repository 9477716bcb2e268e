"""Golden table sessions (tests/table/sessions/*.json) and the replay's command-line contract
(shared/specs/session-format.md).

Each golden file holds a session, the rules it shows (quoted from the books) and the
between-hands facts expected of every hand step: positions, forced bets in posting order,
who was dealt in and who had a dead hand; then the seats after the last step.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from server.table.replay import run_session
from server.table.session_steps import parse_session

GOLDEN = sorted((Path(__file__).parent / "sessions").glob("*.json"))
ROOT = Path(__file__).resolve().parents[2]


def test_there_are_goldens_for_every_rule_of_the_issue() -> None:
    cites = {r["cite"].split()[0] + " " + r["cite"].split()[1] for g in GOLDEN
             for r in json.loads(g.read_text())["rules"]}  # fmt: skip
    for needed in ("cdc 4.3", "tda 31", "ligue art.", "casino (tournoi)", "cdc 4.4", "tda 33",
                   "fpc 5-14", "cdc 2.3", "tda 7", "cdc 4.1", "fpc 17-3", "fpc 17-4",
                   "fpc 17-2", "casino (cash"):  # fmt: skip
        assert needed in cites, f"no golden session quotes {needed}"


def test_issue_28_goldens_quote_their_rules() -> None:
    # issue 28: each reading has its golden, with the rule quoted, and its contrasts
    quotes = {g.stem: " ".join(r["quote"] for r in json.loads(g.read_text())["rules"])
              for g in GOLDEN}  # fmt: skip
    assert (
        "il ne peut pas prendre la position de Brasseur"
        in quotes["ligue-art3-newcomer-never-dealer-nor-small-blind"]
    )
    assert "ne s'applique pas en Cash Game" in quotes["casino-cash-moving-button"]
    assert "miss blinds" in quotes["casino-cash-missed-blinds-owed-big-blind"]
    for contrast in ("cdc-2.3-newcomer-replaces-busted-blinds-six-handed",
                     "tda-7-newcomer-replaces-busted-blinds",
                     "fpc-17-2-newcomer-replaces-busted-blinds",
                     "fpc-cash-17-3-small-blind-leaves"):  # fmt: skip
        assert quotes[contrast]


@pytest.mark.parametrize("path", GOLDEN, ids=[g.stem for g in GOLDEN])
def test_golden_session(path: Path) -> None:
    doc = json.loads(path.read_text())
    assert doc["rules"] and all(r["quote"] for r in doc["rules"])
    out = run_session(parse_session(doc["session"]))
    by_step = {str(s["step"]): s for s in out["steps"]}
    assert all(s["accepted"] for s in out["steps"]), out["steps"]
    for step, expected in doc["expect"]["steps"].items():
        got = by_step[step]
        for key, value in expected.items():
            assert got[key] == value, f"{path.stem} step {step} {key}: {got[key]} != {value}"
    assert out["seats"] == doc["expect"]["seats"]
    last = [s for s in out["steps"] if "hand" in s][-1]
    if doc["session"]["game"] in ("cash", "draw"):
        # a cash table: its ledger and missed blinds as expected; the chips at the table are
        # the buy-ins less the cash-outs and the rake
        assert out["ledger"] == doc["expect"]["ledger"]
        assert out["missed"] == doc["expect"]["missed"]
        sign = {"buy_in": 1, "rebuy": 1, "top_up": 1, "cash_out": -1}
        bank = sum(sign[e["kind"]] * e["amount"] for e in out["ledger"])
        assert sum(last["stacks"].values()) == bank - out["rake"]
        return
    # a tournament: no chip created or lost, no ledger, no rake
    sat = sum(s["sit"]["stack"] for s in doc["session"]["steps"] if "sit" in s)
    assert sum(last["stacks"].values()) == sat
    assert out["ledger"] == [] and out["rake"] == 0 and out["missed"] == {}


def _replay(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.table.replay", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip


def test_command_line_reads_a_file_and_standard_input(tmp_path: Path) -> None:
    session = json.loads(GOLDEN[0].read_text())["session"]
    path = tmp_path / "session.json"
    path.write_text(json.dumps(session))
    from_file = _replay([str(path)])
    from_stdin = _replay(["-"], json.dumps(session))
    assert from_file.returncode == 0 and from_stdin.returncode == 0, from_file.stderr
    assert json.loads(from_file.stdout) == json.loads(from_stdin.stdout)
    assert json.loads(from_file.stdout) == run_session(parse_session(session))


BASE: dict[str, Any] = {
    "profile": "cdc", "game": "tournament", "button": 1,
    "table": {"seats": 6, "blinds": {"sb": 50, "bb": 100}},
    "steps": [{"sit": {"name": "A", "seat": 1, "stack": 1000}}],
}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"profile": "wsop"}, "unknown profile"),
        ({"game": "stud"}, "unknown game"),
        ({"colour": "red"}, "unknown field"),
        ({"steps": [{"dance": {}}]}, "unknown step kind"),
        ({"steps": [{"sit": {"name": "A", "seat": 1}}]}, "stack"),
        ({"steps": [{"sit": {"name": "A", "seat": 1, "stack": 5, "hat": 1}}]}, "unknown field"),
        ({"steps": [{"hand": {"hole": {"A": ["As", "As"]}}}]}, "given twice"),
        ({"steps": [{"hand": {"board": ["Zz"]}}]}, "board"),
        ({"steps": [{"away": {}, "back": {}}]}, "exactly one key"),
        ({"button": 9}, "button"),
        ({"game": "cash", "steps": [{"sit": {"name": "A", "seat": 1, "stack": 5}}]}, "buy_in"),
    ],
)
def test_a_malformed_session_exits_2_with_one_line(change: dict[str, Any], message: str) -> None:
    result = _replay(["-"], json.dumps(BASE | change))
    assert result.returncode == 2, result.stdout
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr


def test_bad_json_and_a_missing_file_exit_2(tmp_path: Path) -> None:
    assert _replay(["-"], "{not json").returncode == 2
    assert _replay([str(tmp_path / "nope.json")]).returncode == 2
    assert _replay([]).returncode == 2


def test_refused_steps_are_reported_and_change_nothing() -> None:
    steps = [
        {"sit": {"name": "A", "seat": 1, "stack": 1000}},
        {"sit": {"name": "B", "seat": 1, "stack": 1000}},  # seat taken
        {"sit": {"name": "A", "seat": 2, "stack": 1000}},  # already seated
        {"sit": {"name": "C", "seat": 7, "stack": 1000}},  # no seat 7 at a 6-seat table
        {"hand": {}},  # one player: no hand
        {"away": {"name": "Z"}},
        {"rebuy": {"name": "A", "amount": 500}},  # a tournament's rebuys are not a table's
        {"queue": {"name": "Q"}},
        {"sit": {"name": "B", "seat": 2, "stack": 1000}},
        {"time": {"minutes": 5}},
        {"hand": {}},
    ]
    out = run_session(parse_session(BASE | {"steps": steps}))
    errors = [(s["step"], s.get("error")) for s in out["steps"] if not s["accepted"]]
    assert errors == [
        (1, "seat_taken"), (2, "already_seated"), (3, "bad_seat"), (4, "not_enough_players"),
        (5, "not_seated"), (6, "rebuy_not_allowed"), (7, "cash_game_only"),
    ]  # fmt: skip
    assert out["seats"] == {"1": "A", "2": "B"}
    assert sum(out["steps"][-1]["stacks"].values()) == 2000


def test_an_empty_first_button_seat_is_a_dead_button() -> None:
    def first_hand(players: list[tuple[str, int]]) -> dict[str, Any]:
        steps: list[dict[str, Any]] = [
            {"sit": {"name": name, "seat": seat, "stack": 1000}} for name, seat in players
        ]
        out = run_session(parse_session(BASE | {"button": 3, "steps": [*steps, {"hand": {}}]}))
        return out["steps"][-1]  # type: ignore[no-any-return]

    three = first_hand([("A", 1), ("B", 2), ("D", 4)])
    assert three["positions"] == {"button": 3, "sb": 4, "bb": 1}
    two = first_hand([("A", 1), ("D", 4)])  # heads-up: the next player is button and SB
    assert two["positions"] == {"button": 4, "sb": 4, "bb": 1}


def test_refused_inputs_are_reported_like_the_hand_format() -> None:
    steps = [
        {"sit": {"name": "A", "seat": 1, "stack": 1000}},
        {"sit": {"name": "B", "seat": 2, "stack": 1000}},
        {"sit": {"name": "C", "seat": 3, "stack": 1000}},
        {"hand": {"inputs": [
            {"player": "A", "say": {"verb": "raise", "amount": 120}},  # under the minimum
            {"player": "A", "say": {"verb": "raise", "amount": 300}},  # his second, his turn over
            {"player": "Z", "say": {"verb": "call"}},
        ]}},
    ]  # fmt: skip
    out = run_session(parse_session(BASE | {"steps": steps}))
    results = out["steps"][-1]["results"]
    assert [r["accepted"] for r in results] == [True, False, False]
    # cdc 9.6: "raise 120" is a raise to the minimum (200)
    assert results[0]["action"] == "raise" and results[0]["to"] == 200
    assert results[1]["code"] and results[1]["error"]
    assert results[2]["code"] == "not_seated"
