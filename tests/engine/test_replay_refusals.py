"""Replay contract (shared/specs/scenario-format.md): exit 2 is for a malformed file only.

A zero or negative amount, or a chip of no value in play, is a move a client can send: the
replay reads it, the rules refuse it (``accepted: false`` with a stable code) and nothing
changes. A wrong type (a string amount, a float, a boolean) is still a malformed file.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

SCENARIO: dict[str, Any] = {
    "profile": "cdc",
    "blinds": {"sb": 50, "bb": 100},
    "players": [
        {"name": "A", "seat": 1, "stack": 10000},
        {"name": "B", "seat": 2, "stack": 10000},
        {"name": "C", "seat": 3, "stack": 10000},
    ],
    "button": 1,
}


def _replay(inputs: list[dict[str, Any]]) -> subprocess.CompletedProcess[str]:
    data = json.dumps({**SCENARIO, "inputs": inputs})
    return subprocess.run(
        [sys.executable, "-m", "server.engine.replay", "-"],
        input=data,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


REFUSED = [
    ({"say": {"verb": "bet", "amount": 0}}, "bad_amount"),
    ({"say": {"verb": "bet", "amount": -500}}, "bad_amount"),
    ({"say": {"verb": "raise", "amount": -1}}, "bad_amount"),
    ({"say": {"verb": "amount", "amount": 0}}, "bad_amount"),
    ({"say": {"verb": "raise", "amount": 0}, "chips": [500]}, "bad_amount"),
    ({"chips": [0]}, "bad_chips"),
    ({"chips": [-100]}, "bad_chips"),
    ({"chips": [100, -100]}, "bad_chips"),
]


@pytest.mark.parametrize(("gesture", "code"), REFUSED)
def test_an_illegal_amount_is_refused_not_malformed(gesture: dict[str, Any], code: str) -> None:
    # A is first to act (three-handed, button at seat 1: B small blind, C big blind, A next)
    done = _replay([{"player": "A", **gesture}, {"player": "A", "say": {"verb": "call"}}])
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    refused, call = out["results"]
    assert refused["accepted"] is False and refused["code"] == code
    assert call["accepted"] is True and call["action"] == "call"  # nothing changed before it
    assert out["stacks"] == {"A": 9900, "B": 9950, "C": 9900}


@pytest.mark.parametrize(
    "gesture",
    [
        {"say": {"verb": "bet", "amount": "500"}},
        {"say": {"verb": "bet", "amount": 1.5}},
        {"say": {"verb": "bet", "amount": True}},
        {"chips": ["100"]},
        {"chips": 100},
    ],
)
def test_a_wrong_type_is_still_a_malformed_file(gesture: dict[str, Any]) -> None:
    done = _replay([{"player": "A", **gesture}])
    assert done.returncode == 2
    assert done.stdout == "" and done.stderr.startswith("replay: ")
