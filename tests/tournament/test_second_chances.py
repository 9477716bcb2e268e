"""Rebuy, re-entry and late registration over the wire, in one process (in-memory director)
and through Redis (the reports and decisions streams of a real ``redis-server``).

The tournament runs behind a real gateway on a fake clock (``tests.tournament.test_table_slips``
harness): the tables deal only as the test moves time on, so a busted player's ``rebuy`` is
sent, as tda 26 wants it, before his table's next hand. In Redis mode the director's clock
is Redis time (the levels do not end during the test).

- A busted player's ``tournament`` state says ``you.out`` with ``can_rebuy``/``can_reenter``;
  ``rebuy`` (tda 26) seats him again at his seat (``moved`` ``rebuy``, then the table's
  snapshot) with the rebuy's stack, dealt in at the next hand.
- ``reenter`` makes a new entry seated as a late entry (``moved`` ``late entry``, tda 7).
- ``register`` after the start seats a newcomer while ``late_registration`` is true (cdc 1.8).
- Refusals: a seated player (``tournament.not_allowed``), a rebuy past its maximum or after
  the window, a re-entry after its window (``tournament.not_allowed``), a registration after
  late registration (``tournament.registration_closed``).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from protocol import messages as m
from server.dealing import Signer
from server.gateway.app import Gateway
from server.store import Store
from server.table.clock import FakeClock
from server.tournament import RefusalReason, Refused, Registered, Wait, WaitReason, lobby
from server.tournament.director import Director
from server.tournament.redis_link import RedisLink
from tests.integration.wsclient import WsClient

from .helpers import config, deal, end, one, players
from .test_levels_and_registration import MIN
from .test_table_slips import ONE_ADDRESS, TID, Cup, seat_at

SECOND_CHANCES = """
name = "Second chances"
profile = "cdc"
starting_stack = 1000
denominations = [25, 100, 500]
table_size = 6
min_players = 2
late_registration_until_level = 2

[rebuy]
until_level = 1
max = 1
stack = 1500

[reentry]
until_level = 2
max = 1
stack = 1200

[server]
action_seconds = 10
time_bank_seconds = 0
cut_seconds = 2
next_hand_seconds = 1
showdown_seconds = 1

[[levels]]
sb = 25
bb = 50
minutes = 3

[[levels]]
sb = 50
bb = 100
minutes = 3

[[levels]]
sb = 100
bb = 200
minutes = 30
"""
"""Rebuys during level 1 (once, 1,500 chips), re-entries and late registration until the
end of level 2 (one re-entry, 1,200 chips)."""


class RedisCup(Cup):
    """The same tournament with its director behind Redis (one process: reports and decisions
    still go through the streams, the director holds the lease)."""

    def __init__(self, data: Path, config: str, url: str, prefix: str) -> None:
        self.clock = FakeClock()
        link = RedisLink(url, "solo", "ws://solo/ws", prefix=prefix)
        self.gateway = Gateway(
            Store(data / "brasseur.sqlite"),
            Signer.generate(),
            clock=self.clock,
            limits=ONE_ADDRESS,
            redis=link,
        )
        self.live = self.gateway.add_tournament(TID, config)
        self.port = 0
        self.players: list[WsClient] = []
        self.boss: WsClient | None = None
        self.all_in: set[str] = set()


@pytest_asyncio.fixture
async def cups(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> AsyncIterator[Callable[[str], Cup]]:
    made: list[Cup] = []

    def make(mode: str) -> Cup:
        if mode == "redis":
            cup: Cup = RedisCup(tmp_path, SECOND_CHANCES, redis_url, redis_prefix)
        else:
            cup = Cup(tmp_path, SECOND_CHANCES)
        made.append(cup)
        return cup

    yield make
    for cup in made:
        await cup.close()


# ---------------------------------------------------------------------- helpers


def token_of(client: WsClient) -> str:
    return client.of(m.Registered)[0].token


def bust_index(client: WsClient) -> int | None:
    """Where the client's seat was freed by a bust since he last sat down (None: it was not)."""
    moves = [k for k, x in enumerate(client.messages) if isinstance(x, m.Moved)]
    if not moves:
        return None
    moved = client.messages[moves[-1]]
    assert isinstance(moved, m.Moved)
    return next(
        (
            k
            for k in range(moves[-1], len(client.messages))
            if isinstance(x := client.messages[k], m.SeatEvent)
            and x.status == "busted"
            and x.table == moved.table
            and x.seat == moved.seat
        ),
        None,
    )


def busted(client: WsClient) -> bool:
    return bust_index(client) is not None


async def bust(cup: Cup, table: str, limit: float = 120) -> list[WsClient]:
    """Everyone at ``table`` goes all-in until someone busts; the clock stops right after
    (the table's next hand, and with it the end of the rebuy, is a second away)."""
    cup.all_in.add(table)
    before = {p.name for p in cup.players if busted(p)}
    await cup.until(lambda: any(busted(p) and p.name not in before for p in cup.players), limit)
    cup.all_in.discard(table)
    return [p for p in cup.players if busted(p) and p.name not in before]


async def you(
    client: WsClient, since: int = -1, state: dict[str, Any] | None = None, **want: Any
) -> dict[str, Any]:
    """The first ``tournament`` state from message ``since`` (default: from now) whose ``you``
    has the wanted values (states are sent at most 5 times a second, on every change; through
    Redis a state may lag the decisions a little)."""

    def ok(x: m.Message) -> bool:
        if not isinstance(x, m.TournamentState) or not isinstance(x.state.get("you"), dict):
            return False
        if x.state.get("phase") == "registering":
            return False
        if any(x.state.get(k) != v for k, v in (state or {}).items()):
            return False
        return all(x.state["you"].get(k) == v for k, v in want.items())

    found = await client.wait_for(ok, 5, since=len(client.messages) if since < 0 else since)
    assert isinstance(found, m.TournamentState)
    state: dict[str, Any] = found.state
    return state


async def ask(client: WsClient, message: m.Message) -> m.Message:
    """Send; the answer is the player's ``moved`` or an ``error``."""
    mark = len(client.messages)
    await client.send(message)
    return await client.wait_for(lambda x: isinstance(x, (m.Moved, m.Error)), 5, since=mark)


async def seated_again(client: WsClient, answer: m.Message, reason: str) -> m.Moved:
    assert isinstance(answer, m.Moved), answer
    assert answer.reason == reason and answer.tournament == TID
    since = next(k for k, x in enumerate(client.messages) if x is answer)
    snap = await client.wait_type(m.Snapshot, 5, since=since, table=answer.table)
    assert snap.state["you"] == answer.seat
    return answer


def stack_at(client: WsClient, moved: m.Moved) -> int:
    snap = [x for x in client.of(m.Snapshot) if x.table == moved.table][-1]
    return int(next(s["stack"] for s in snap.state["seats"] if s["seat"] == moved.seat))


# ---------------------------------------------------------------------- the journey


async def rebuy_then_reenter(cup: Cup) -> None:
    """Two players heads-up: the first busted rebuys, the next busted re-enters; then a late
    registrant (the fourth entry)."""
    await cup.open()
    await cup.start(2)
    table = cup.table_of(cup.players[0])
    state = await you(cup.players[0], 0, out=False, table=table)
    assert state["late_registration"] is True and state["phase"] != "registering"
    assert state["you"]["can_rebuy"] is False and state["you"]["can_reenter"] is False
    assert "second_chances" not in state
    # a seated player can neither rebuy nor re-enter
    seated = cup.players[0]
    refused = await ask(seated, m.Rebuy(tournament=TID, token=token_of(seated), id=5))
    assert isinstance(refused, m.Error) and refused.code == "tournament.not_allowed"
    assert refused.ref == 5

    (x,) = await bust(cup, table)
    seat = seat_at(x)
    state = await you(x, bust_index(x) or 0, out=True, can_rebuy=True)
    assert state["you"]["can_reenter"] is True and "seat" not in state["you"]
    answer = await ask(x, m.Rebuy(tournament=TID, token=token_of(x), id=6))
    moved = await seated_again(x, answer, "rebuy")
    assert moved.seat == seat and moved.table == table and moved.from_table == ""
    assert stack_at(x, moved) == 1500
    await you(x, x.messages.index(moved), out=False, can_rebuy=False, seat=seat)
    # dealt in at the next hand
    mark = len(x.messages)
    await cup.until(lambda: any(str(seat) in h.stacks for h in x.of(m.HandStart, mark)), 10)

    (y,) = await bust(cup, table)
    # one rebuy at most: the player who rebought may only re-enter now
    state = await you(y, bust_index(y) or 0, out=True, can_reenter=True)
    assert state["you"]["can_rebuy"] is (y is not x)
    if y is x:
        refused = await ask(y, m.Rebuy(tournament=TID, token=token_of(y)))
        assert isinstance(refused, m.Error) and refused.code == "tournament.not_allowed"
    answer = await ask(y, m.Reenter(tournament=TID, token=token_of(y), id=7))
    moved = await seated_again(y, answer, "late entry")
    assert stack_at(y, moved) == 1200
    await you(y, y.messages.index(moved), out=False, can_reenter=False, seat=moved.seat)
    # and a late registrant takes a seat too
    late = await cup.connect("late")
    await late.send(m.Register(tournament=TID, id=8))
    await late.wait_type(m.Registered, 5)
    entry = await late.wait_type(m.Moved, 5)
    await seated_again(late, entry, "late entry")
    cup.players.append(late)


@pytest.mark.asyncio
async def test_rebuy_reentry_and_late_registration_then_the_windows_close(
    cups: Callable[[str], Cup],
) -> None:
    cup = cups("local")
    await rebuy_then_reenter(cup)
    watch = cup.players[-1]
    # the end of level 2 (6 minutes in): late registration and the windows close
    await cup.until(lambda: cup.live.coordinator.state()["level"] >= 3, 600, step=20)
    await you(watch, 0, state={"late_registration": False}, out=False)
    newcomer = await cup.connect("newcomer")
    refused = await ask(newcomer, m.Register(tournament=TID, id=9))
    assert isinstance(refused, m.Error) and refused.code == "tournament.registration_closed"
    # a bust now: no more rebuy nor re-entry
    table = cup.table_of(watch)
    gone = await bust(cup, table)
    for player in gone:
        state = await you(player, bust_index(player) or 0, out=True)
        assert state["you"]["can_rebuy"] is False and state["you"]["can_reenter"] is False
        for again in (m.Rebuy, m.Reenter):
            refused = await ask(player, again(tournament=TID, token=token_of(player)))
            assert isinstance(refused, m.Error) and refused.code == "tournament.not_allowed"
    results = cup.live.coordinator.state()
    assert results["entries"] == 4  # two first entries, a re-entry, a late registration


@pytest.mark.asyncio
async def test_rebuy_and_reentry_through_redis(cups: Callable[[str], Cup]) -> None:
    cup = cups("redis")
    await rebuy_then_reenter(cup)
    state = await you(cup.players[-1], 0, state={"entries": 4}, out=False)
    assert "second_chances" not in state


# ---------------------------------------------------------------------- the director's answers


def test_the_directors_predicates_answer_as_its_decisions() -> None:
    """``may_rebuy`` / ``may_reenter`` / ``second_chances`` / ``open_to_newcomers`` (what the
    state shows) say exactly what ``rebuy`` / ``reenter`` / ``register`` then do; an abandon is
    final (cdc 1.9: no re-entry after it)."""
    cfg = config(
        late_registration_until_level=2,
        rebuy={"until_level": 2, "max": 1},
        reentry={"until_level": 2, "max": 1},
    )
    d = Director(cfg, random.Random(1), now=0.0)
    for p in players(12):
        d.register(p, p, 0.0)
    assert d.open_to_newcomers() and d.second_chances() == {}
    d.start(0.0)
    assert d.open_to_newcomers()
    dl = deal(d, 1)
    victim, quitter = list(dl.seats.values())[:2]
    end(d, dl, busts=[victim])
    assert d.second_chances() == {victim: (True, True)}
    assert d.may_rebuy(victim) and d.may_reenter(victim)
    d.abandon(quitter, 5.0)
    assert not d.may_reenter(quitter) and quitter not in d.second_chances()
    assert one(d.reenter(quitter, 6.0), Refused).reason is RefusalReason.NOT_ALLOWED
    assert one(d.ready(1, 6.5), Wait).reason is WaitReason.REBUY  # tda 26: it waits
    d.tick(15.0)  # its 15 s are over: it deals, too late to rebuy (tda 26)
    assert d.second_chances() == {victim: (False, True)}
    assert one(d.rebuy(victim, 7.0), Refused).reason is RefusalReason.NOT_ALLOWED
    assert one(d.reenter(victim, 8.0), Registered).entry == 2
    assert d.second_chances() == {}
    d.tick(40 * MIN)  # the end of level 2: late registration is over
    assert not d.open_to_newcomers()
    assert one(d.register("late", "L", 40 * MIN), Refused).reason is (
        RefusalReason.REGISTRATION_CLOSED
    )


def test_a_busted_players_place_reaches_only_him_once_registration_is_closed() -> None:
    """cdc 1.10: busts are ranked when late registration closes (before, a re-entry could
    still change the field); then each busted player's ``you`` carries his place, and the
    lobby's state never carries anyone's."""
    cfg = config(late_registration_until_level=2, reentry={"until_level": 2, "max": 1})
    d = Director(cfg, random.Random(1), now=0.0)
    for p in players(12):
        d.register(p, p, 0.0)
    d.start(0.0)
    dl = deal(d, 1)
    victim, other = list(dl.seats.values())[:2]
    end(d, dl, busts=[victim])
    assert d.places() == {}  # late registration open: not ranked yet
    d.tick(40 * MIN)  # the end of level 2: registration closes, busts are ranked
    assert d.places() == {victim: 12}
    state = {"phase": "running", "places": d.places(), "second_chances": {}}
    assert lobby.you(state, victim, True, None) == {
        "player": victim,
        "out": True,
        "can_rebuy": False,
        "can_reenter": False,
        "place": 12,
    }
    assert "place" not in (lobby.you(state, other, True, ("T-1", 2)) or {})
    assert "places" not in lobby.lobby_state(state, str, "live")
