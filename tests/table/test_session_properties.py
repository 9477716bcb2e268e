"""Random tournament sessions on the pure table (sits, leaves, absences, refused rebuys,
hands with random inputs): chips are conserved, and no hand is dealt with positions that
break the dead-button rules, checked here independently of server.engine.positions.

- tda 31: "La grosse blinde avance invariablement": the big blind is the first player
  clockwise after the last big blind's seat, and nobody posts it twice in a row (cdc 4.4);
- cdc 4.3: a small blind is posted only from the last big blind's seat (none if empty;
  cdc 2.3: a newcomer who took the seat of a busted big blind posts it);
- cdc 2.5: the player who was small blind keeps his right to be last: he is on the button;
- fpc 17-3 / 17-4 instead: a blind's player gone, the same dealer deals, no small blind;
- heads-up (cdc 4.4, tda 33): the button posts the small blind;
- cdc 4.1: an absent player dealt in has a dead hand; a present one never has;
- cdc 2.3 / tda 7: a player who has played at the table is always dealt in.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.table.replay import run_session
from server.table.session_steps import parse_session

SEATS = 6
NAMES = [f"P{k}" for k in range(1, 40)]
VERBS = ["allin", "allin", "call", "call", "call", "fold", "check", "raise"]


@st.composite
def sessions(draw: st.DrawFn) -> dict[str, Any]:
    profile = draw(st.sampled_from(["cdc", "tda", "ligue", "casino", "fpc"]))
    first = draw(st.integers(3, 5))
    steps: list[dict[str, Any]] = [
        {"sit": {"name": NAMES[k], "seat": k + 1, "stack": draw(st.integers(30, 900))}}
        for k in range(first)
    ]
    for _ in range(draw(st.integers(6, 24))):
        kind = draw(st.sampled_from(["hand", "hand", "hand", "away", "back", "sit", "leave",
                                     "rebuy"]))  # fmt: skip
        name = draw(st.sampled_from(NAMES[:first]))
        if kind == "hand":
            # every name speaks, twice round, in seat order from a random one (those not
            # in the hand are refused, the others act in turn or out of turn)
            names = NAMES[:first]
            start = draw(st.integers(0, first - 1))
            order = (names[start:] + names[:start]) * 2
            inputs = [
                {"player": name, "say": {"verb": draw(st.sampled_from(VERBS))}}
                for name in order[: draw(st.integers(0, len(order)))]
            ]
            steps.append({"hand": {"inputs": inputs, "seed": draw(st.integers(0, 999))}})
        elif kind == "sit":
            # a newcomer (a name never seen: a busted player sitting again would be a
            # re-entry, the tournament's business, and the same person to the checks)
            name = NAMES[first]
            first += 1
            seat = draw(st.integers(1, SEATS))
            steps.append({"sit": {"name": name, "seat": seat,
                                  "stack": draw(st.integers(30, 900))}})  # fmt: skip
        elif kind == "rebuy":
            steps.append({"rebuy": {"name": name, "amount": 500}})
        else:
            steps.append({kind: {"name": name}})
    return {
        "profile": profile, "game": "tournament", "seed": draw(st.integers(0, 999)),
        "table": {"seats": SEATS, "blinds": {"sb": 25, "bb": 50}}, "button": 1,
        "steps": steps,
    }  # fmt: skip


def _first_after(seat: int, seats: set[int]) -> int:
    return next(s for k in range(1, SEATS + 1) if (s := (seat - 1 + k) % SEATS + 1) in seats)


class Checker:
    """Follows the session from its steps and its output; asserts at every hand."""

    def __init__(self, profile: str) -> None:
        self.fpc = profile == "fpc"
        self.seat: dict[str, int] = {}
        self.away: set[str] = set()
        self.played: set[str] = set()
        self.chips = 0
        self.last: dict[str, Any] | None = None

    def step(self, step: dict[str, Any], out: dict[str, Any]) -> None:
        ((kind, data),) = step.items()
        if not out["accepted"]:
            return
        if kind == "sit":
            self.seat[data["name"]] = data["seat"]
            self.chips += data["stack"]
        elif kind == "leave":
            self.chips -= out["left_with"]
            self._gone(data["name"])
        elif kind == "away":
            self.away.add(data["name"])
        elif kind == "back":
            self.away.discard(data["name"])
        elif kind == "hand":
            self.hand(out)

    def _gone(self, name: str) -> None:
        self.seat.pop(name, None)
        self.away.discard(name)
        self.played.discard(name)

    def hand(self, h: dict[str, Any]) -> None:
        assert sum(h["stacks"].values()) == self.chips, "chips created or lost"
        seated = {self.seat[p] for p in h["stacks"]}
        dealt = set(h["dealt_in"])
        pos = h["positions"]
        posted = {p["kind"]: p["player"] for p in h["posted"]}
        assert len(dealt) >= 2
        assert self.played & set(h["stacks"]) <= dealt, "a player who played here waits"
        absent = self.away & dealt
        assert set(h["dead"]) == (set() if absent == dealt else absent), "cdc 4.1"
        if "bb" in posted:
            assert self.seat[posted["bb"]] == pos["bb"]
        if len(seated) == 2 and "sb" in posted:
            assert self.seat[posted["sb"]] == pos["button"], "heads-up: the button is SB"
        last = self.last
        if last is not None:
            assert pos["bb"] == _first_after(last["positions"]["bb"], seated), "tda 31"
            last_posted = {p["kind"]: p["player"] for p in last["posted"]}
            if "bb" in posted and "bb" in last_posted:
                assert posted["bb"] != last_posted["bb"], "big blind twice in a row"
            if len(dealt) > 2 and "sb" in posted:
                # the last big blind's seat: his, or a newcomer's in it if he busted (cdc 2.3)
                assert self.seat[posted["sb"]] == last["positions"]["bb"], "cdc 4.3"
            sb_before = last_posted.get("sb")
            # by seat: a newcomer who took a blind's empty seat assumes its obligations (fpc 17-2)
            blinds = {last["positions"]["bb"]} | ({last["positions"]["sb"]} - {None})
            gone = blinds - seated
            # leaving heads-up (players joined as a blind's player busted): the engine moves
            # on as from any heads-up (tests/engine/test_positions_fpc.py, "leaving heads-up:
            # as today"): fpc 17-3 and 17-4 speak of a table dealing to three or more
            heads_up = last["positions"]["sb"] == last["positions"]["button"]
            if self.fpc and len(dealt) > 2 and gone and not heads_up:
                # fpc 17-3 / 17-4: "le donneur distribue deux fois", no small blind
                assert "sb" not in posted and pos["button"] == last["positions"]["button"]
            elif len(dealt) > 2 and len(last["dealt_in"]) > 2 and sb_before in dealt:
                assert self.seat[sb_before] == pos["button"], "cdc 2.5: droit au bouton"
        self.played |= dealt
        for name, stack in h["stacks"].items():
            if stack == 0:
                self._gone(name)
        self.last = h


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions())
def test_random_sessions_conserve_chips_and_deal_legal_positions(session: dict[str, Any]) -> None:
    out = run_session(parse_session(session))
    assert len(out["steps"]) == len(session["steps"])
    checker = Checker(session["profile"])
    for step, result in zip(session["steps"], out["steps"], strict=True):
        checker.step(step, result)
    assert out["seats"] == {str(s): n for n, s in sorted(checker.seat.items(), key=lambda x: x[1])}
