"""The Redis coordinator's pure parts: the director's state through Redis (versioned msgpack,
see also test_redis_state_codec.py), and the hand a table was playing when its process died,
closed without losing a chip."""

from __future__ import annotations

import random
import secrets

from server.tournament import Deal, Eliminated
from server.tournament.coordinator import DirectorLoop
from server.tournament.director import Director
from server.tournament.recovery import close_recovered_hand
from server.tournament.redis_state import Directing, dump, load

from .helpers import config, players


def directing(n: int = 12) -> Directing:
    cfg = config(table_size=6)
    loop = DirectorLoop(Director(cfg, random.Random(3), now=0.0))
    for p in players(n):
        loop.handle("register", {"player": p, "name": p.upper()}, 0.0)
    loop.handle("start", {}, 0.0)
    return Directing(loop, directory={1: "a", 2: "b"})


def dealt(st: Directing, table: int) -> Deal:
    out = st.loop.handle("ready", {"table": table}, 1.0)
    return next(x for x in out if isinstance(x, Deal) and x.table_id == table)


def chips(st: Directing) -> int:
    d = st.loop.director
    return sum(d.stack(p) for t in d.table_ids() for p in d.seating(t).values())


def test_the_director_state_goes_through_redis_without_its_config_or_random_source() -> None:
    st = directing()
    d = st.loop.director
    deal = dealt(st, 1)
    blob = dump(st, d.config, d._rng)
    back = load(blob, d.config)
    assert back.loop.director.config is d.config  # the process's own, never stored
    assert isinstance(back.loop.director._rng, secrets.SystemRandom)
    assert back.directory == {1: "a", 2: "b"}
    assert back.loop.director.table_counts() == d.table_counts()
    assert back.loop.director.busy(1) and back.loop.names == st.loop.names
    assert dealt(back, 2).hand_no == 1 and deal.hand_no == 1


def test_a_hand_cut_by_the_crash_is_cancelled_with_the_start_of_hand_stacks() -> None:
    # the rebuilt table is at the hand before (the deal never reached it) or in the cut hand
    for behind in (1, 0):
        st = directing()
        before = chips(st)
        deal = dealt(st, 1)
        d = st.loop.director
        stacks = {p: d.stack(p) for p in deal.seats.values()}
        data = {"table": 1, "hand": deal.hand_no - behind, "record": None}
        out = close_recovered_hand(st.loop, data, 2.0)
        assert not any(isinstance(x, Eliminated) for x in out)
        assert not d.busy(1)
        assert {p: d.stack(p) for p in deal.seats.values()} == stacks
        assert chips(st) == before
        assert dealt(st, 1).hand_no == deal.hand_no + 1  # the table deals again
        # nothing to close at a table between hands
        assert close_recovered_hand(st.loop, {"table": 2, "hand": 0, "record": None}, 3.0) == []


def test_a_hand_finished_before_the_crash_counts_with_its_busts() -> None:
    st = directing()
    before = chips(st)
    deal = dealt(st, 1)
    d = st.loop.director
    seats = sorted(deal.seats)
    loser, winner = seats[0], seats[1]
    start = {str(s): d.stack(deal.seats[s]) for s in seats}
    final = dict(start)
    final[str(winner)] += final[str(loser)]
    final[str(loser)] = 0
    record = {"start": start, "final": final, "winners": [winner]}
    out = close_recovered_hand(st.loop, {"table": 1, "hand": deal.hand_no, "record": record}, 2.0)
    gone = [x for x in out if isinstance(x, Eliminated)]
    assert [x.player_id for x in gone] == [deal.seats[loser]]
    assert not d.busy(1)
    assert d.stack(deal.seats[winner]) == int(final[str(winner)])
    assert chips(st) == before
