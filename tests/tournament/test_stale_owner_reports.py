"""A live process taken for dead (stalled under load) runs its table until it applies the
batch giving it away: its reports of that table, handled after the takeover, must not deal a
hand nobody plays. The load test's stuck run: the director handled the new owner's
``recovered`` (nothing to close), then the old owner's ``ready`` (a Deal that reached no
table: the old one closed, the rebuilt one not started), then refused the rebuilt table's
``ready`` ("asked to deal during hand N") forever.

Driven through the lease holder's report handling (:meth:`RedisCoordinator._handle_reports`)
on a real Redis, the takeover through :func:`~server.tournament.redis_placing.take_over`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest

from server.dealing import Signer
from server.table.clock import FakeClock
from server.table.dealer import CsprngDealer
from server.tokens import NonceBook, TokenAuthority
from server.tournament import Deal
from server.tournament.coordinator import DirectorLoop
from server.tournament.decisions import Instruction
from server.tournament.director import Director
from server.tournament.host import TournamentHost
from server.tournament.live import load_tournament
from server.tournament.recovery import hand_record_summary, stale_table_report
from server.tournament.redis_coordinator import RedisCoordinator, _Pace, _Round
from server.tournament.redis_link import RedisLink
from server.tournament.redis_placing import recovered, take_over
from server.tournament.redis_state import Directing

from .helpers import config, players

TID = "so"
TOML = """
name = "Stale owner"
starting_stack = 3000
table_size = 6
final_table_size = 6
min_players = 2

[[levels]]
sb = 25
bb = 50
minutes = 20
"""


@pytest.fixture
def coordinator(redis_url: str, redis_prefix: str) -> Iterator[RedisCoordinator]:
    link = RedisLink(redis_url, "b", "ws://b/ws", prefix=redis_prefix)
    link.add_tournament(TID, TOML)
    cfg, settings = load_tournament(TOML)
    nonces: dict[str, str] = {}
    host = TournamentHost(
        TID,
        cfg,
        settings,
        clock=FakeClock(),
        dealer=lambda: CsprngDealer(Signer.generate()),
        store=None,
        auth=TokenAuthority(bytes(32), time.time, NonceBook(nonces.get, nonces.__setitem__)),
        add_table=lambda actor: None,
        drop_table=lambda name: None,
        persist=lambda key, value: None,
    )
    coord = RedisCoordinator(link, TID, cfg, host, host.clock)
    try:
        yield coord
    finally:
        coord.close()
        link.close()


def directing() -> Directing:
    loop = DirectorLoop(Director(config(table_size=6), random.Random(5), now=0.0))
    for p in players(12):
        loop.handle("register", {"player": p, "name": p.upper()}, 0.0)
    loop.handle("start", {}, 0.0)
    return Directing(loop, directory={1: "a", 2: "b"})


class Reports:
    """Reports as the lease holder reads them from the stream, handled one by one."""

    def __init__(self, coord: RedisCoordinator, st: Directing) -> None:
        self.coord, self.st, self.n = coord, st, 0
        self.pace = _Pace(base=(0.0, time.monotonic()), live={"a": "", "b": ""})

    def __call__(self, kind: str, data: dict[str, Any], proc: str) -> _Round:
        self.n += 1
        packed = msgpack.packb([kind, data, proc], use_bin_type=True)
        entry = (f"{self.n}-0", {b"r": packed})
        return self.coord._handle_reports(self.st, [entry], float(self.n), self.pace)


def deals(out: list[Instruction], table: int) -> list[Deal]:
    return [x for x in out if isinstance(x, Deal) and x.table_id == table]


def chips(st: Directing) -> int:
    d = st.loop.director
    return sum(d.stack(p) for t in d.table_ids() for p in d.seating(t).values())


def test_the_old_owners_ready_after_the_recovery_deals_nothing(
    coordinator: RedisCoordinator,
) -> None:
    st = directing()
    d = st.loop.director
    report = Reports(coordinator, st)
    before = chips(st)
    # "a" is taken for dead: table 1 goes to "b", which rebuilds it (before any hand)
    adopt: dict[int, dict[str, Any]] = {}
    take_over(st, {"b": "ws://b/ws"}, adopt, "b", TID)
    assert set(adopt) == {1} and st.directory[1] == "b" and st.adopting == {1: "b"}
    done = report("recovered", {"table": 1, "hand": 0, "record": None}, "b")
    assert done.synced == {1} and not d.busy(1)
    # "a" wakes up and its table, not closed yet, asks to deal: refused
    assert deals(report("ready", {"table": 1}, "a").out, 1) == []
    assert not d.busy(1)
    # the rebuilt table, started by the sync, asks to deal: dealt
    [deal] = deals(report("ready", {"table": 1}, "b").out, 1)
    assert deal.hand_no == 1 and d.busy(1)
    assert chips(st) == before


def test_the_old_owners_reports_before_the_recovery_are_refused(
    coordinator: RedisCoordinator,
) -> None:
    st = directing()
    d = st.loop.director
    report = Reports(coordinator, st)
    before = chips(st)
    [deal] = deals(report("ready", {"table": 1}, "a").out, 1)
    stacks = {p: d.stack(p) for p in deal.seats.values()}
    take_over(st, {"b": "ws://b/ws"}, {}, "b", TID)
    # the old owner's table: its hand's end and its next ready, between takeover and recovery
    seats = sorted(deal.seats)
    loser, winner = seats[0], seats[1]
    final = {str(s): d.stack(deal.seats[s]) for s in seats}
    final[str(winner)] += 100
    final[str(loser)] -= 100
    ended = {
        "table": 1,
        "hand": deal.hand_no,
        "positions": None,
        "stacks": {s: [deal.seats[int(s)], v] for s, v in final.items()},
        "busts": [],
        "cancelled": False,
    }
    assert report("ended", ended, "a").out == [] and d.busy(1)
    assert report("ready", {"table": 1}, "a").out == [] and d.busy(1)
    # the new owner found the hand cut (no record): cancelled with the start stacks
    report("recovered", {"table": 1, "hand": deal.hand_no, "record": None}, "b")
    assert not d.busy(1) and {p: d.stack(p) for p in deal.seats.values()} == stacks
    [again] = deals(report("ready", {"table": 1}, "b").out, 1)
    assert again.hand_no == deal.hand_no + 1
    assert chips(st) == before


def test_a_hand_whose_record_was_saved_is_closed_as_played() -> None:
    st = directing()
    d = st.loop.director
    before = chips(st)
    deal = deals(st.loop.handle("ready", {"table": 1}, 1.0), 1)[0]
    take_over(st, {"b": "ws://b/ws"}, {}, "b", TID)
    seats = sorted(deal.seats)
    record = {
        "players": [{"seat": s, "stack": d.stack(deal.seats[s])} for s in seats],
        "final_stacks": {s: d.stack(deal.seats[s]) + (50 if s == seats[1] else 0) for s in seats},
        "pots": [{"winners": [seats[1]]}],
    }
    record["final_stacks"][seats[0]] -= 50
    summary = hand_record_summary(record)
    recovered(st, {"table": 1, "hand": deal.hand_no, "record": summary}, "b", 2.0, set(), TID)
    assert not d.busy(1) and chips(st) == before
    assert d.stack(deal.seats[seats[1]]) == int(summary["final"][str(seats[1])])


def test_which_reports_are_stale() -> None:
    directory, adopting = {1: "a", 2: "b", 3: "?"}, {2: "b"}
    assert stale_table_report("ready", {"table": 1}, "a", directory, adopting) is None
    assert stale_table_report("ready", {"table": 1}, "b", directory, adopting) is not None
    assert stale_table_report("allin", {"table": 2}, "b", directory, adopting) is not None
    assert stale_table_report("ended", {"table": 3}, "a", directory, adopting) is not None
    assert stale_table_report("ready", {"table": 9}, "a", directory, adopting) is None
    assert stale_table_report("call", {"table": 1}, "b", directory, adopting) is None
    assert stale_table_report("register", {"player": "x"}, "b", directory, adopting) is None
