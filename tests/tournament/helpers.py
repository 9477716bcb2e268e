"""Scripted tables for the director's unit tests: build configs, deal, end hands with busts."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from server.tournament import (
    Bust,
    Deal,
    Decision,
    Director,
    HandEnded,
    TournamentConfig,
)

T = TypeVar("T")

LEVELS: list[dict[str, Any]] = [
    {"sb": 25, "bb": 50, "minutes": 20},
    {"sb": 50, "bb": 100, "minutes": 20},
    {"sb": 100, "bb": 200, "minutes": 20},
    {"sb": 200, "bb": 400, "minutes": 20},
    {"sb": 500, "bb": 1000, "minutes": 20},
]


def config(**overrides: Any) -> TournamentConfig:
    data: dict[str, Any] = {
        "name": "test",
        "profile": "cdc",
        "starting_stack": 10000,
        "denominations": [25, 100, 500, 1000, 5000],
        "table_size": 9,
        "levels": LEVELS,
        "late_registration_until_level": 0,
    }
    data.update(overrides)
    return TournamentConfig.from_dict(data)


def players(n: int) -> list[str]:
    return [f"p{i:03d}" for i in range(1, n + 1)]


def started(n: int, cfg: TournamentConfig | None = None, seed: int = 1) -> Director:
    d = Director(cfg or config(), random.Random(seed), now=0.0)
    for p in players(n):
        d.register(p, p.upper(), 0.0)
    d.start(0.0)
    return d


def of(decisions: Iterable[Decision], kind: type[T]) -> list[T]:
    return [x for x in decisions if isinstance(x, kind)]


def one(decisions: Iterable[Decision], kind: type[T]) -> T:
    found = of(decisions, kind)
    assert len(found) == 1, (kind, decisions)
    return found[0]


def deal(d: Director, table_id: int, now: float = 0.0) -> Deal:
    out = d.ready(table_id, now)
    return next(x for x in out if isinstance(x, Deal) and x.table_id == table_id)


def end(
    d: Director,
    dl: Deal,
    *,
    busts: Sequence[str] = (),
    winner: str | None = None,
    now: float = 0.0,
    after: dict[str, int] | None = None,
) -> list[Decision]:
    """End the dealt hand: the busted players' chips go to ``winner`` (default: the first
    survivor in seat order); ``after`` sets survivors' stacks (the caller keeps the total)."""
    seats = dict(dl.seats)
    stacks = {p: d.stack(p) for p in seats.values()}
    start = dict(stacks)
    alive = [p for s, p in sorted(seats.items()) if p not in busts]
    win = winner or alive[0]
    for p in busts:
        stacks[win] += stacks[p]
        stacks[p] = 0
    stacks.update(after or {})
    report = HandEnded(
        table_id=dl.table_id,
        hand_no=dl.hand_no,
        positions=dl.positions,
        stacks={s: (p, stacks[p]) for s, p in seats.items() if stacks[p] > 0},
        busts=tuple(
            Bust(player_id=p, seat=s, start_stack=start[p], eliminated_by=(win,))
            for s, p in sorted(seats.items())
            if p in busts
        ),
    )
    return d.hand_ended(report, now)


def play_round(d: Director, now: float = 0.0) -> None:
    """Deal and end one hand without busts at every open table."""
    for tid in d.table_ids():
        end(d, deal(d, tid, now), now=now)


class Driver:
    """Keeps the Deal decisions (a Deal may release another table) and ends hands."""

    def __init__(self, d: Director) -> None:
        self.d = d
        self.deals: dict[int, Deal] = {}
        self.log: list[Decision] = []

    def feed(self, out: list[Decision]) -> list[Decision]:
        self.log += out
        for x in out:
            if isinstance(x, Deal):
                assert x.table_id not in self.deals
                self.deals[x.table_id] = x
        return out

    def ready(self, tid: int, now: float = 0.0) -> list[Decision]:
        return self.feed(self.d.ready(tid, now))

    def ready_all(self, now: float = 0.0) -> list[Decision]:
        out: list[Decision] = []
        for tid in self.d.table_ids():
            if tid not in self.deals:
                out += self.ready(tid, now)
        return out

    def end(self, tid: int, now: float = 0.0, **kwargs: Any) -> list[Decision]:
        dl = self.deals.pop(tid)
        return self.feed(end(self.d, dl, now=now, **kwargs))

    def bust_down_to(self, remaining: int, now: float = 0.0) -> None:
        """One bust per hand until ``remaining`` players are left; then every dealt hand ends
        without a bust. Stops once hand-for-hand is on with no hand in play."""
        for _ in range(10_000):
            self.ready_all(now)
            if not self.deals:
                return
            for tid in list(self.deals):
                if tid not in self.deals:
                    continue
                dl = self.deals[tid]
                bust = self.d.remaining > remaining and self.d.hand_for_hand is None
                victims = [next(iter(dl.seats.values()))] if bust else []
                self.end(tid, now, busts=victims, winner=list(dl.seats.values())[-1])
            if self.d.remaining <= remaining and not self.deals:
                return
        raise AssertionError("no progress")
