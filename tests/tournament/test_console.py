"""The director's console on a live tournament (in-memory coordinator, real table actors, a
fake clock): pause and resume, stack adjustments with a reason, missed-hand penalties,
disqualification, the folded-hands view (cdc 10.6), and tokens that are not the director's."""

from __future__ import annotations

from typing import Any

import pytest

from protocol import ErrorCode, ProtocolError
from protocol import messages as m
from server.dealing import Signer
from server.table.actor import TableActor
from server.table.clock import FakeClock
from server.table.dealer import CsprngDealer
from server.tokens import NonceBook, TokenAuthority
from server.tournament.live import LiveTournament
from tests.table.helpers import RecordingClient, settle

CONFIG = """
name = "Console"
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

[[levels]]
sb = 25
bb = 50
minutes = 10

[[levels]]
sb = 50
bb = 100
minutes = 10

[[levels]]
sb = 100
bb = 200
minutes = 10
"""


SERVER_SIDE = ("brasseur.tournament", "brasseur.table")
"""Loggers whose warnings mean a refused report or a table error."""


def pid_of(client: RecordingClient) -> str:
    assert client.pid is not None  # registered
    return client.pid


def said(client: RecordingClient) -> list[str]:
    """What the director said at the client's table (notes, penalties, rulings)."""
    return [c.text for c in client.of(m.ChatEvent) if c.player == "director"]


class Setup:
    def __init__(self, config: str = CONFIG) -> None:
        self.clock = FakeClock()
        memory: dict[str, str] = {}
        self.auth = TokenAuthority(
            b"k" * 32, lambda: 1_800_000_000.0, NonceBook(memory.get, memory.__setitem__)
        )
        self.tables: dict[str, TableActor] = {}
        signer = Signer.generate()
        self.live = LiveTournament.local(
            "cup",
            config,
            clock=self.clock,
            dealer=lambda: CsprngDealer(signer),
            store=None,
            auth=self.auth,
            add_table=lambda a: self.tables.__setitem__(a.table, a),
            drop_table=lambda name: self.tables.pop(name, None),
            persist=lambda k, v: None,
        )
        self.host = self.live.host
        self.director = self.live.coordinator.loop.director
        self.boss = RecordingClient()
        self.token = self.host.director_token()

    async def register(self, n: int) -> list[RecordingClient]:
        players = []
        for k in range(n):
            client = RecordingClient()
            self.host.register(client, f"P{k}", None)
            players.append(client)
        await settle()
        return players

    async def started(self, n: int, seconds: float = 3) -> list[RecordingClient]:
        """``n`` registered players, the tournament started, ``seconds`` played."""
        players = await self.register(n)
        self.direct("start")
        await self.run(seconds)
        return players

    def direct(self, op: str, **fields: Any) -> None:
        self.host.console(self.boss, m.Direct(tournament="cup", token=self.token, op=op, **fields))

    async def run(self, seconds: float, step: float = 1.0) -> None:
        """Let time pass: nobody acts, so every decision times out (check, else fold)."""
        t = 0.0
        while t < seconds:
            await self.clock.advance(step)
            await settle()
            t += step

    def table(self) -> TableActor:
        (actor,) = self.tables.values()
        return actor


@pytest.mark.asyncio
async def test_pause_stops_the_levels_and_resume_restarts_them() -> None:
    s = Setup()
    await s.register(4)
    s.direct("start")
    await s.run(300)
    assert s.director.level.number == 1 and not s.director.paused
    s.direct("pause", text="dinner")
    await s.run(900)  # 15 minutes paused: still level 1 (the tables go on dealing)
    assert s.director.level.number == 1 and s.director.paused
    assert s.host.coordinator is not None and s.host.coordinator.state()["paused"] is True
    s.direct("resume")
    await s.run(330)
    assert s.director.level.number == 2


@pytest.mark.asyncio
async def test_a_stack_adjustment_needs_a_reason_and_lands_between_hands() -> None:
    s = Setup()
    players = await s.started(3)
    pid = pid_of(players[0])
    with pytest.raises(ProtocolError) as refused:
        s.direct("adjust", player=pid, amount=6000)
    assert refused.value.code == ErrorCode.OUT_OF_RANGE
    s.direct("adjust", player=pid, amount=6000, text="miscount at the colour-up")
    for _ in range(120):
        await s.run(1)
        if s.director.stack(pid) == 6000:
            break
    assert s.director.stack(pid) == 6000
    await s.run(1)
    seat = next(st.seat for st in s.table().seats.values() if st.player == pid)
    # the table applied it between hands: the next hand starts with it
    starts = [h for h in players[1].of(m.HandStart) if h.stacks.get(str(seat)) == 6000]
    assert starts, [h.stacks for h in players[1].of(m.HandStart)][-3:]
    notes = said(players[1])
    assert any("miscount at the colour-up" in n for n in notes)
    assert [e["op"] for e in s.live.coordinator.loop.log] == ["adjust"]


@pytest.mark.asyncio
async def test_a_penalty_deals_the_player_dead_hands_and_a_warning_is_said() -> None:
    s = Setup()
    players = await s.started(3)
    pid = pid_of(players[0])
    s.direct("warn", player=pid, text="bad language")
    s.direct("penalty", player=pid, hands=2, text="third warning")
    await s.run(150)
    seat = next(st.seat for st in s.table().seats.values() if st.player == pid)
    dead = {
        a.hand for a in players[1].of(m.ActionEvent) if a.action == "dead_hand" and a.seat == seat
    }
    assert len(dead) == 2  # cdc 11.1: two hands missed, blinds and antes still posted
    notes = said(players[1])
    assert any("warning" in n for n in notes) and any("misses 2 hand" in n for n in notes)
    with pytest.raises(ProtocolError):
        s.direct("penalty", player=pid, hands=0)


@pytest.mark.asyncio
async def test_the_director_sees_folded_hands_and_a_player_token_cannot_direct() -> None:
    s = Setup()
    players = await s.register(3)
    s.direct("start")
    await s.run(40)
    s.direct("folded", table=s.table().table)
    (answer,) = [x for x in s.boss.of(m.TournamentState) if "folded" in x.state]
    hands = answer.state["folded"]["hands"]
    assert hands and all(len(cards) == 2 for h in hands for cards in h["holes"].values())
    # nobody else ever gets it
    assert not [x for p in players for x in p.of(m.TournamentState) if "folded" in x.state]
    player_token = s.host.player_token(players[0].pid or "")
    with pytest.raises(ProtocolError) as refused:
        s.host.console(s.boss, m.Direct(tournament="cup", token=player_token, op="pause"))
    assert refused.value.code == ErrorCode.BAD_TOKEN
    forged = s.token[:-4] + ("AAAA" if not s.token.endswith("AAAA") else "BBBB")
    with pytest.raises(ProtocolError):
        s.host.console(s.boss, m.Direct(tournament="cup", token=forged, op="pause"))
    assert not s.director.paused


@pytest.mark.asyncio
async def test_disqualification_removes_the_chips_and_ranks_the_player() -> None:
    s = Setup()
    players = await s.started(4)
    pid = pid_of(players[2])
    s.direct("disqualify", player=pid, text="collusion (cdc 10.6)")
    await s.run(30)
    assert pid not in {st.player for st in s.table().seats.values()}
    assert s.director.remaining == 3
    out = [e for e in s.live.coordinator.loop.eliminated if e.player_id == pid]
    assert out and out[-1].place == 4


@pytest.mark.asyncio
async def test_fpc_removes_a_registered_player_who_never_reached_his_seat() -> None:
    """fpc 2-2: still absent at the end of level 2, the player is removed with his stack;
    the ones whose connection reached their seat stay (presence comes from the host)."""
    s = Setup(CONFIG.replace('profile = "cdc"', 'profile = "fpc"'))
    players = await s.register(4)
    gone = players[3]
    s.host.gone(gone)  # registered, then closed the page before the start
    s.direct("start")
    await s.run(1300, step=5)
    assert s.director.level.number == 3 or s.director.level.is_break
    seated = {st.player for actor in s.tables.values() for st in actor.seats.values()}
    assert gone.pid not in seated
    assert {p.pid for p in players[:3]} & seated
    assert s.director.remaining <= 3


@pytest.mark.asyncio
async def test_a_player_calls_the_director_who_rules_at_the_table() -> None:
    """A dispute: a seated player calls the director; the call waits in the console (the
    state's ``calls``) until the director rules, and the ruling is said at that table."""
    s = Setup()
    players = await s.started(3)
    caller = players[1]
    table = s.table().table
    s.host.call_director(caller, table, s.table().hand_no, "he said call, then pushed 2 chips")
    await settle()
    assert s.host.coordinator is not None
    (call,) = s.host.coordinator.state()["calls"]
    number = call[0]
    assert call[2] == "P1" and "pushed 2 chips" in call[4]
    with pytest.raises(ProtocolError):
        s.direct("rule", amount=number)  # a ruling needs words
    s.direct("rule", amount=number, text="verbal prevails: a call (cdc 9.2)")
    await settle()
    assert s.host.coordinator.state()["calls"] == []
    for _ in range(120):  # words for a table in a hand are said once it ends (cdc 11.3)
        if any("director's ruling" in t for t in said(players[0])):
            break
        await s.run(1)
    notes = said(players[0])
    assert any("calls the director" in t for t in notes)
    assert any("verbal prevails" in t and f"#{number}" in t for t in notes)
    outsider = RecordingClient(pid="nobody")
    with pytest.raises(ProtocolError) as refused:
        s.host.call_director(outsider, table, None, "let me in")
    assert refused.value.code == ErrorCode.NOT_SEATED


@pytest.mark.asyncio
async def test_leaving_a_tournament_table_keeps_the_seat_and_an_abandon_is_announced(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``leave`` at a tournament table only stops watching it: the seat is the director's and
    stays, blinded (cdc 1.8); the player announces an abandon with his token (cdc 1.9)."""
    s = Setup()
    players = await s.started(4)
    quitter = players[0]
    assert quitter.pid is not None
    actor = s.table()
    actor.submit_message(quitter, m.LeaveTable(table=actor.table))
    await s.run(60)
    assert quitter.pid in {st.player for st in actor.seats.values()}
    assert s.director.remaining == 4
    assert not [r for r in caplog.records if r.levelno >= 30 and r.name in SERVER_SIDE]
    with pytest.raises(ProtocolError) as refused:
        s.host.abandon(s.token)  # the director's token is not a player's
    assert refused.value.code == ErrorCode.BAD_TOKEN
    s.host.abandon(s.host.player_token(quitter.pid))
    await s.run(30)
    assert quitter.pid not in {st.player for st in actor.seats.values()}
    assert s.director.remaining == 3
    (out,) = [e for e in s.live.coordinator.loop.eliminated if e.player_id == quitter.pid]
    assert out.abandoned and out.place == 4


@pytest.mark.asyncio
async def test_a_move_to_a_taken_seat_is_refused_to_the_console_in_words() -> None:
    s = Setup()
    players = await s.started(4)
    actor = s.table()
    taken = next(st for st in actor.seats.values() if st.player != players[0].pid)
    s.direct("move", player=players[0].pid, table=actor.table, seat=taken.seat)
    await s.run(60)
    refusals = [e for e in s.boss.of(m.Error) if e.code == "tournament.refused"]
    assert refusals and "cannot go to table" in refusals[0].message
    # nothing moved: everyone still at his seat
    assert taken.player == actor.seats[taken.seat].player


@pytest.mark.asyncio
@pytest.mark.parametrize("phase", ["cut", "betting"])
async def test_an_abandon_during_the_players_hand_folds_it_and_the_table_goes_on(
    phase: str, caplog: pytest.LogCaptureFixture
) -> None:
    """cdc 1.9 during a hand (before the cards are dealt, or while betting): his hand is dealt
    dead or folded at his turn, the seat is freed when the hand ends, and the table deals on
    (a seat deleted mid-hand used to stall the deal)."""
    s = Setup()
    players = await s.register(4)
    s.direct("start")
    await s.run(1)
    actor = s.table()
    while actor.phase.value != phase:
        await s.clock.advance(0.5)
        await settle()
    in_hand = {actor.seats[x].player for x in actor.core.start_stacks}
    quitter = next(p for p in players if p.pid in in_hand)
    assert quitter.pid is not None
    hand = actor.hand_no
    s.host.abandon(s.host.player_token(quitter.pid))
    await s.run(120)
    assert actor.hand_no >= hand + 3
    assert quitter.pid not in {st.player for st in actor.seats.values()}
    assert s.director.remaining == 3
    assert not [r for r in caplog.records if r.levelno >= 30 and r.name in SERVER_SIDE]
