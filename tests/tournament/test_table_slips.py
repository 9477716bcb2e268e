"""Rules slips at tournament tables: what the director says, shows or holds must never reach
the table (or its rail) while a hand is being played.

A real tournament in this process: the gateway on a free port, the director and the
in-memory coordinator driving real tables, players, the director's console and spectators as
real websocket clients (``tests.integration.wsclient.WsClient``), and a fake clock moved by
the test (nobody acts unless told: every decision is checked or folded by the clock). Only the
wire is asserted on, so the tests hold whatever the tables look like inside.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from protocol import messages as m
from server.dealing import Signer
from server.gateway.app import Gateway
from server.gateway.limits import Limits
from server.store import Store
from server.table.clock import FakeClock
from tests.integration.wsclient import OPEN, WsClient

TID = "cup"

LEVELS = """
[[levels]]
sb = 25
bb = 50
minutes = 30

[[levels]]
sb = 50
bb = 100
minutes = 30
"""

ONE_TABLE = (
    """
name = "Slips"
profile = "cdc"
starting_stack = 5000
denominations = [25, 100, 500, 1000]
table_size = 9
min_players = 2
late_registration_until_level = 0

[server]
action_seconds = 10
time_bank_seconds = 0
cut_seconds = 2
next_hand_seconds = 1
showdown_seconds = 1
"""
    + LEVELS
)

BUBBLE = (
    """
name = "Bubble"
profile = "cdc"
starting_stack = 5000
denominations = [25, 100, 500, 1000]
table_size = 3
final_table_size = 3
min_players = 2
late_registration_until_level = 0
prize_pool = 1000

[[payouts]]
entrants = [5, 100]
percents = [30, 25, 20, 15, 10]

[server]
action_seconds = 10
time_bank_seconds = 20
cut_seconds = 2
next_hand_seconds = 1
showdown_seconds = 1
"""
    + LEVELS
)
"""Six players at two tables of three, five paid: one elimination from the money from the
first hand, so every hand is played hand-for-hand (cdc 2.7)."""

ONE_ADDRESS = Limits(connections_per_address=0, registrations_per_address=0, tables_per_address=0)
"""Every bot connects from 127.0.0.1: one address, lifted limits (tests/conftest.py)."""


def seat_at(client: WsClient) -> int | None:
    """The client's seat at its current tournament table (from the last ``moved``)."""
    moves = client.of(m.Moved)
    return moves[-1].seat if moves else None


class Cup:
    """A tournament served by an in-process gateway, on a fake clock."""

    def __init__(self, data: Path, config: str) -> None:
        self.clock = FakeClock()
        self.gateway = Gateway(
            Store(data / "brasseur.sqlite"), Signer.generate(), clock=self.clock, limits=ONE_ADDRESS
        )
        self.live = self.gateway.add_tournament(TID, config)
        self.port = 0
        self.players: list[WsClient] = []
        self.boss: WsClient | None = None
        self.all_in: set[str] = set()
        """Tables where every player goes all-in at his turn."""

    async def open(self) -> None:
        server = await self.gateway.start("127.0.0.1", 0)
        self.port = int(server.sockets[0].getsockname()[1])

    async def connect(self, name: str) -> WsClient:
        client = await WsClient.connect(self.port, name)
        welcome = await client.hello(None, nickname=name)
        assert isinstance(welcome, m.Welcome), welcome
        return client

    async def start(self, n: int) -> None:
        for k in range(n):
            client = await self.connect(f"P{k}")
            client.handler = self._play
            await client.send(m.Register(tournament=TID, id=1))
            await client.wait_type(m.Registered, 5)
            self.players.append(client)
        self.boss = await self.connect("boss")
        await self.direct("start")
        await self.until(lambda: all(p.of(m.Moved) for p in self.players), limit=10)

    async def _play(self, client: WsClient, msg: m.Message) -> None:
        if isinstance(msg, m.Turn) and msg.table in self.all_in and msg.seat == seat_at(client):
            await client.send(m.Act(table=msg.table, hand=msg.hand, verb="allin"))

    async def direct(self, op: str, **fields: Any) -> None:
        assert self.boss is not None
        token = self.live.host.director_token()
        await self.boss.send(m.Direct(tournament=TID, token=token, op=op, **fields))

    async def quiet(self) -> None:
        """Let the frames sent so far reach the clients (nothing new for 20 ms)."""
        clients = [*self.players, *([self.boss] if self.boss else []), *OPEN]
        for _ in range(50):
            before = sum(len(c.messages) for c in clients)
            await asyncio.sleep(0.02)
            if sum(len(c.messages) for c in clients) == before:
                return

    async def step(self, seconds: float) -> None:
        await self.clock.advance(seconds)
        await self.quiet()

    async def until(self, ok: Callable[[], bool], limit: float = 600, step: float = 0.5) -> None:
        """Move the clock on by ``step`` until ``ok()`` (on what the clients received)."""
        waited = 0.0
        await self.quiet()
        while not ok():
            assert waited < limit, "the tournament never got there"
            await self.step(step)
            waited += step

    def table_of(self, client: WsClient) -> str:
        return client.of(m.Moved)[-1].table

    def at(self, table: str) -> list[WsClient]:
        return [p for p in self.players if self.table_of(p) == table]

    async def close(self) -> None:
        for client in list(OPEN):
            await client.close()
        await self.gateway.close()


@pytest_asyncio.fixture
async def cup_factory(tmp_path: Path) -> AsyncIterator[Callable[[str], Cup]]:
    cups: list[Cup] = []

    def make(config: str) -> Cup:
        cup = Cup(tmp_path, config)
        cups.append(cup)
        return cup

    yield make
    for cup in cups:
        await cup.close()


def playing(client: WsClient, table: str) -> int | None:
    """The hand being bet at ``table`` as ``client`` sees it (an action clock is running and
    the hand has not ended), else None."""
    ended = {x.hand for x in client.of(m.HandEnd) if x.table == table}
    clocks = [x for x in client.of(m.ClockEvent) if x.table == table and x.hand not in ended]
    return clocks[-1].hand if clocks else None


def director_notes(client: WsClient, text: str) -> list[int]:
    """Indexes of the director's chat events received by ``client`` that contain ``text``."""
    return [
        k
        for k, x in enumerate(client.messages)
        if isinstance(x, m.ChatEvent) and x.player == "director" and text in x.text
    ]


def hand_end_index(client: WsClient, table: str, hand: int) -> int | None:
    return next(
        (
            k
            for k, x in enumerate(client.messages)
            if isinstance(x, m.HandEnd) and x.table == table and x.hand == hand
        ),
        None,
    )


# ---------------------------------------------------------------------- (a) the director's call


@pytest.mark.asyncio
async def test_a_director_call_text_reaches_the_table_only_after_the_hand(
    cup_factory: Callable[[str], Cup],
) -> None:
    """cdc 11.3: « Les joueurs se doivent de protéger les autres joueurs dans le tournoi en tout
    temps. De ce fait, qu'ils soient dans un coup ou non, par exemple ils ne peuvent : Révéler
    le contenu de mains en jeu ou couchées sur le coup en cours, Conseiller ou critiquer une
    action quoi qu'il arrive, [...] La règle « un jeu = un joueur » prévaudra. » cdc 11.4:
    « Si un joueur encore en jeu montre intentionnellement son jeu ou même une carte [...]
    alors que plus d'un autre joueur est encore en jeu, sa main est foldée [...] »

    A seated player calls the director (``call_director`` with his words) while a hand is
    played, and the director rules on it at once. The call travels host.call_director ->
    coordinator (``call``) -> ``TableNote`` -> the table's ``t_note`` -> a ``chat_event`` from
    ``director`` at that table: it carries the player's own words, then the ruling, to
    everyone there. Said mid-hand it is table talk from one player to the others, a channel
    around "one player to a hand": neither the call's words nor the ruling may reach the other
    players before the hand is over (the director has the call in his console at once; the
    ruling is said at the table after the hand). Today both are said immediately.
    """
    cup = cup_factory(ONE_TABLE)
    await cup.open()
    await cup.start(3)
    table = cup.table_of(cup.players[0])
    watch = cup.players[0]
    await cup.until(lambda: (playing(watch, table) or 0) >= 2)
    hand = playing(watch, table)
    assert hand is not None
    caller, *others = cup.at(table)
    words = "he said call then pushed two chips"
    await caller.send(m.CallDirector(table=table, hand=hand, text=words))
    await cup.until(lambda: bool(cup.live.coordinator.state()["calls"]), limit=1)
    (call,) = cup.live.coordinator.state()["calls"]  # the director knows at once
    ruling = "verbal prevails: a call"
    await cup.direct("rule", amount=call[0], text=ruling)
    await cup.quiet()
    assert playing(watch, table) == hand  # still the same hand
    for other in others:
        assert director_notes(other, words) == [], f"the call's words reached {other.name} mid-hand"
        assert director_notes(other, ruling) == [], f"the ruling reached {other.name} mid-hand"
    await cup.until(lambda: all(hand_end_index(o, table, hand) is not None for o in others))
    await cup.step(0.1)
    for other in others:
        end = hand_end_index(other, table, hand)
        assert end is not None
        ruled = director_notes(other, ruling)
        assert ruled and min(ruled) > end, (other.name, ruled, end)  # said, after the hand
        assert all(k > end for k in director_notes(other, words)), other.name


# ---------------------------------------------------------------------- (b) folded hands


@pytest.mark.asyncio
async def test_the_directors_folded_hands_view_excludes_the_hand_in_play(
    cup_factory: Callable[[str], Cup],
) -> None:
    """cdc 10.6: « Tout joueur à table peut demander à un responsable de vérifier le ou les
    jeux non dévoilés dans le but de lutter contre la collusion. [...] Tout floor peut
    également demander à vérifier le ou les jeux non dévoilés dans le but de lutter contre la
    collusion, il doit indiquer que c'est dans ce but. » cdc 11.3: « La règle « un jeu = un
    joueur » prévaudra. »

    The console's folded-hands view (``direct`` ``op: folded``, answered with a ``tournament``
    event holding ``folded``) lists the hole cards of the table's finished hands only, never
    those of the hand being played (a screen of live hole cards is a window any collusion can
    use). Today every hand is listed from the moment it is dealt.
    """
    cup = cup_factory(ONE_TABLE)
    await cup.open()
    await cup.start(3)
    table = cup.table_of(cup.players[0])
    watch = cup.players[0]
    await cup.until(lambda: (playing(watch, table) or 0) >= 3)
    live = playing(watch, table)
    assert live is not None and cup.boss is not None
    mark = len(cup.boss.messages)
    await cup.direct("folded", table=table)
    answer = await cup.boss.wait_for(
        lambda x: isinstance(x, m.TournamentState) and "folded" in x.state, 5, since=mark
    )
    assert isinstance(answer, m.TournamentState)
    assert playing(watch, table) == live  # still in play when the director looked
    listed = [h["hand"] for h in answer.state["folded"]["hands"]]
    assert live not in listed, f"hand {live} is being played and its hole cards are listed"
    assert listed and all(h < live for h in listed), listed  # the finished hands are there
    # once it is over, it is listed
    await cup.until(lambda: hand_end_index(watch, table, live) is not None)
    mark = len(cup.boss.messages)
    await cup.direct("folded", table=table)
    answer = await cup.boss.wait_for(
        lambda x: isinstance(x, m.TournamentState) and "folded" in x.state, 5, since=mark
    )
    assert isinstance(answer, m.TournamentState)
    assert live in [h["hand"] for h in answer.state["folded"]["hands"]]


# ---------------------------------------------------------------------- (c) the rail


@pytest.mark.asyncio
async def test_spectators_get_no_live_hand_for_hand_hold_notice_nor_live_time_banks(
    cup_factory: Callable[[str], Cup],
) -> None:
    """cdc 2.7: « Lorsqu'un joueur est payé à tapis au cours d'un 'main par main', les cartes
    sont maintenues cachées jusqu'à ce que le jeu soit terminé sur l'ensemble des autres
    tables et il est demandé aux joueurs de ne donner aucune indication sur leurs cartes afin
    de ne pas influencer le jeu en cours sur les autres tables. » docs/protocol.md: in the
    commentary mode a director may choose, « spectators see the table one hand behind: while
    a hand is being played they get nothing [...] a spectator's snapshot taken mid-hand shows
    the table as of the last completed hand ».

    During a hand-for-hand all-in, the rail must not get the ``notice`` ``hand_for_hand_hold``
    live (it tells anyone watching, players of the other table included, that an all-in was
    called here while the other table still plays its hand), and a snapshot taken during a
    hand shows every ``time_bank_ms`` as of the last completed hand, never a bank being spent
    now (who is thinking long in which hand). Today the notice goes to every watcher of the
    table and a spectator's snapshot shows the banks live.
    """
    cup = cup_factory(BUBBLE)
    await cup.open()
    await cup.start(6)
    await cup.direct("spectators", text="commentary")
    watch = cup.players[0]
    table = cup.table_of(watch)
    await cup.until(lambda: playing(watch, table) is not None)
    hand = playing(watch, table)
    assert hand is not None
    # one from the money: hand-for-hand (the lobby's state is sent at most 5 times a second)
    await watch.wait_for(
        lambda x: isinstance(x, m.TournamentState) and bool(x.state.get("hand_for_hand")), 5
    )
    rail = await cup.connect("rail")
    await rail.send(m.JoinTable(table=table))
    before = await rail.wait_type(m.Snapshot, 5)
    banks = {s["seat"]: s["time_bank_ms"] for s in before.state["seats"]}
    assert banks and all(v == 20_000 for v in banks.values()), banks
    # the player to act thinks past his action clock (10 s): his time bank (20 s) starts
    seated = cup.at(table)
    await cup.until(
        lambda: any(x.hand == hand for x in watch.of(m.ClockEvent) if x.kind == "bank"),
        limit=11,
    )
    assert playing(watch, table) == hand
    late = await cup.connect("late")
    await late.send(m.JoinTable(table=table))
    during = await late.wait_type(m.Snapshot, 5)
    shown = {s["seat"]: s["time_bank_ms"] for s in during.state["seats"]}
    assert shown == banks, f"a spectator's snapshot mid-hand shows the banks live: {shown}"
    # everyone goes all-in: the hands stay face down until the other table has finished
    cup.all_in.add(table)
    thinking = [x for x in watch.of(m.ClockEvent) if x.table == table][-1].seat
    thinker = next(p for p in seated if seat_at(p) == thinking)
    await thinker.send(m.Act(table=table, hand=hand, verb="allin"))
    await cup.until(
        lambda: any(x.kind == "hand_for_hand_hold" for p in seated for x in p.of(m.Notice)),
        limit=5,
    )
    for spectator in (rail, late):
        holds = [x for x in spectator.of(m.Notice) if x.kind == "hand_for_hand_hold"]
        assert holds == [], f"{spectator.name} was told of the hand-for-hand hold mid-hand"
