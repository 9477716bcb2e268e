"""The bot client: one websocket connection, one seat, one strategy.

    bot = Bot("ws://127.0.0.1:8000/ws", CallingStation(), nickname="alice")
    await bot.connect()
    created = await bot.create_table(name="bots", action_seconds=5)
    await bot.take_seat(created.table, 1, created.invite)
    await bot.play(hands=100)
    await bot.close()

Every frame is decoded and validated by :func:`protocol.decode_server` (the connection's part:
:class:`~bots.connection.BotConnection`). Sequenced table events go through the bot's
:class:`~bots.mirror.TableMirror` (sequence checks, invariants); a gap triggers a ``resync``; a
dropped connection is resumed with the latest seat token and ``join(last_seq)``. When the
server sends a ``turn``, the strategy's ``decide(view)`` is asked and its decision is sent as
``act`` frames naming the turn's ``decision``: once per decision (a ``turn`` re-sent for a
decision already answered on this connection is ignored; docs/protocol.md, "Decisions"). At
five-card draw, a ``turn`` with ``draw`` asks the strategy's ``draw(view)`` instead, and a
decision with ``discard`` goes as a ``draw`` frame (refused and answered again like an act).

The module also owns what the client knows of the server's answers: the error codes a fuzzer
provokes on purpose, the tournament phases where a player still in has a seat, how often a
refused act is answered again, and :class:`Requests`, the cuts and acts whose error may only
say the answer came too late (counted as late, never as errors).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from protocol import PROTOCOL_VERSION
from protocol import messages as m

from .connection import BotConnection, BotError, next_id
from .mirror import PLAYER_ACTIONS, TableMirror
from .notebook import Notebook
from .stats import Stats
from .strategy import Decision, Strategy, View

__all__ = ["Bot", "BotError"]

EXPECTED_FOR_FUZZER = frozenset(
    {
        "not_your_turn",
        "stale_hand",
        "stale_decision",
        "out_of_range",
        "show_refused",
        "too_early",
        "chat_held",
        "not_seated",
        "bad_card",
    }
)
"""Error codes a fuzzer provokes on purpose (besides every ``rule.*`` code)."""
PLAYING = frozenset({"running", "break", "hand_for_hand", "final_table"})
"""Tournament phases where every player still in has a seat."""
MAX_RETRIES = 3
"""Replies to a refused act before the bot waits for its clock."""


@dataclass(slots=True)
class Requests:
    """A bot's cuts and acts whose answer may still come back as an error."""

    cuts: set[int] = field(default_factory=set)
    """Request ids of our cuts."""
    acts: dict[int, int] = field(default_factory=dict)
    """Request id of each act -> the hand it was for."""

    def act(self, rid: int, hand: int) -> None:
        self.acts[rid] = hand
        if len(self.acts) > 256:
            for old in list(self.acts)[:128]:
                del self.acts[old]

    def late(self, error: m.Error, ended_hand: int, moved: bool, stats: Stats) -> bool:
        """``error`` only says our answer came too late: counted in ``stats``, True.
        ``ended_hand``: the last hand whose end we saw; ``moved``: we changed tables."""
        code = error.code
        if error.ref is not None and error.ref in self.cuts:
            self.cuts.discard(error.ref)
            if code == "not_your_turn":  # the cut came after the server's cut timer had fired
                stats.late_cuts += 1
                return True
        if len(self.cuts) > 8:
            self.cuts.clear()
        acted_in = self.acts.pop(error.ref, None) if error.ref is not None else None
        if acted_in is None:
            return False
        if code == "stale_hand" and acted_in <= ended_hand:
            stats.late_acts += 1  # the hand ended while we answered: a race, not a fault
            return True
        if code == "stale_decision":
            # the decision closed while we answered (the clock ran out, an opponent's fold
            # out of turn changed our options): the next turn, if ours, is a new one
            stats.late_acts += 1
            return True
        if code == "not_seated" and moved:
            stats.late_acts += 1  # we were moved to another table while answering
            return True
        return False


class Bot(BotConnection):
    """A seated bot. ``stats`` and ``notebook`` may be shared by many bots of one process;
    ``counts_table``: this bot counts the table's hands and actions in ``stats`` (one per
    table). ``counts_own``: where tables change (tournaments), this bot counts its own
    actions and the hands where it holds the lowest seat dealt in, so that a crowd of such
    bots counts every action and every hand once."""

    def __init__(
        self,
        url: str,
        strategy: Strategy,
        *,
        nickname: str = "bot",
        stats: Stats | None = None,
        notebook: Notebook | None = None,
        auto_cut: bool = True,
        reconnect: bool = True,
        counts_table: bool = False,
        counts_own: bool = False,
        rebuy: bool = False,
        rng: random.Random | None = None,
        compression: str | None = None,
        trace: int = 0,
        urls: Sequence[str] = (),
    ) -> None:
        super().__init__(
            url,
            nickname=nickname,
            stats=stats,
            reconnect=reconnect,
            compression=compression,
            trace=trace,
            urls=urls,
        )
        self._refollow: asyncio.Task[None] | None = None
        self._stale = False
        """We reconnected: the table we follow may have been rebuilt elsewhere meanwhile."""
        self.strategy = strategy
        self.notebook = notebook
        self.auto_cut = auto_cut
        self.counts_table = counts_table
        self.counts_own = counts_own
        self.rebuy = rebuy
        """Take the seat again (with a new starting stack) after busting."""
        self.rng = rng or random.Random()
        self.table: str | None = None
        self.seat: int | None = None
        self.invite: str | None = None
        self.buy_in: int | None = None
        """A cash table's buy-in (None: a friends table): a bust is rebought with it."""
        self.left = False
        """The bot stood up (``leave``): it answers nothing more at this table."""
        self.seat_token: str | None = None
        self.mirror: TableMirror | None = None
        self.turn: m.Turn | None = None
        self.errors: list[m.Error] = []
        """Every error reply (most recent last, bounded)."""
        self._resyncing = False
        self._in_flight: set[int] = set()
        """Ids of the acts sent for the current turn not answered yet (an error: ask again)."""
        self._answered = 0
        """The decision last answered on this connection at this table (never twice); cleared
        on a new connection or table: a decision offered there is open (ours got lost)."""
        self._requests = Requests()
        """Our cuts and acts whose answer may still be an error saying we were late."""
        self._ended_hand = 0
        """The last hand whose hand_end this bot received."""
        self._retries = 0
        self._latency_from: tuple[int, float] | None = None
        self.last_event_at = time.monotonic()
        """When the last table event (or snapshot) arrived (to find stuck tables)."""
        self.busted = False
        """Our seat was lost with our last chip (and ``rebuy`` is off)."""
        self.tournament: str | None = None
        self.player_token: str | None = None
        self.tournament_state: dict[str, Any] = {}
        self.tournament_over = False
        self.moves = 0
        self.states = 0
        """Tournament states received (the lobby, sent to every follower on every change)."""
        self.state_bytes = 0

    # ------------------------------------------------------------------ seats

    async def create_table(self, name: str = "bots", **options: Any) -> m.TableCreated:
        """Create a friends table; ``options`` are fields of
        :class:`~protocol.messages.CreateTable`."""
        rid = next_id()
        created = await self.request(
            m.CreateTable(name=name, id=rid, **options),
            lambda msg: isinstance(msg, m.TableCreated) and msg.ref == rid,
            ref=rid,
        )
        assert isinstance(created, m.TableCreated)
        return created

    async def take_seat(
        self,
        table: str,
        seat: int,
        invite: str,
        timeout: float = 60.0,
        buy_in: int | None = None,
    ) -> m.Seated:
        self.table, self.seat, self.invite = table, seat, invite
        self.buy_in = buy_in
        self.left = False
        self.mirror = TableMirror(table, seat, self._violation)
        if self.notebook is not None:
            self.notebook.join(table)
        rid = next_id()
        seated = await self.request(
            m.TakeSeat(table=table, seat=seat, token=invite, buy_in=buy_in, id=rid),
            lambda msg: isinstance(msg, m.Seated) and msg.table == table,
            timeout,
            ref=rid,
        )
        assert isinstance(seated, m.Seated)
        return seated

    async def resume(self, table: str, seat_token: str, timeout: float = 60.0) -> m.Seated:
        """Come back to a seat on a new connection: hello with the seat token, then
        ``join(last_seq)`` for the events missed."""
        self.table = table
        self.seat_token = seat_token
        if self.mirror is None:
            self.mirror = TableMirror(table, None, self._violation)
        await self._start()
        return await self._rejoin(timeout)

    async def _rejoin(self, timeout: float) -> m.Seated:
        assert self.table is not None and self.mirror is not None
        waiter = self._expect(lambda msg: isinstance(msg, m.Seated) and msg.table == self.table)
        await self.send(
            m.Hello(version=PROTOCOL_VERSION, nickname=self.nickname, token=self.seat_token)
        )
        await self.send(m.JoinTable(table=self.table, last_seq=self.mirror.seq))
        seated = await asyncio.wait_for(waiter, timeout)
        assert isinstance(seated, m.Seated)
        return seated

    def _can_resume(self) -> bool:
        return bool(self.seat_token or self.player_token)

    async def _resume(self) -> None:
        self._in_flight.clear()
        self._answered = 0
        self._latency_from = None
        self._resyncing = False
        if self.player_token is not None and self.tournament is not None:
            # a tournament player: the server puts us back on our seat, wherever it is
            self._stale = True
            await self.send(m.Hello(version=PROTOCOL_VERSION, nickname=self.nickname))
            await self.send(
                m.FollowTournament(tournament=self.tournament, token=self.player_token, lobby=False)
            )
            return
        assert self.table is not None and self.mirror is not None
        await self.send(
            m.Hello(version=PROTOCOL_VERSION, nickname=self.nickname, token=self.seat_token)
        )
        await self.send(m.JoinTable(table=self.table, last_seq=self.mirror.seq))

    # ------------------------------------------------------------------ tournaments

    async def register(self, tournament: str, timeout: float = 60.0) -> m.Registered:
        """Register for a tournament (under the hello nickname) and follow it: the server
        seats this connection at the start and moves it with every table change."""
        self.tournament = tournament
        rid = next_id()
        registered = await self.request(
            m.Register(tournament=tournament, lobby=False, id=rid),
            lambda msg: isinstance(msg, m.Registered) and msg.tournament == tournament,
            timeout,
            ref=rid,
        )
        assert isinstance(registered, m.Registered)
        self.player_token = registered.token
        return registered

    async def follow(self, tournament: str, token: str | None = None) -> None:
        """Follow a tournament (with a player token: sit at one's seat, wherever it is)."""
        self.tournament = tournament
        if token is not None:
            self.player_token = token
        await self.send(
            m.FollowTournament(tournament=tournament, token=self.player_token, lobby=False)
        )

    async def _on_moved(self, msg: m.Moved) -> None:
        """The director moved us: a new table (and a new mirror: its own sequence)."""
        self.moves += 1
        refused = self._refused.get(msg.url) if msg.url else None
        if refused is not None and time.monotonic() - refused < 5.0:
            # sent to a server that just refused us: its process died, and the server taking
            # its tables over moves us again; ask again in a while meanwhile
            if self._refollow is None or self._refollow.done():
                self._refollow = asyncio.create_task(self._follow_later(1.0))
            return
        if msg.url and msg.url != self.url:
            # the new table runs on another server process: reconnect there, same token
            self.url = msg.url
            if self.ws is not None:
                await self.ws.close()  # the read loop reconnects to self.url and follows
            return
        if msg.table != self.table:
            if self.notebook is not None and self.table is not None:
                self.notebook.leave(self.table)
            self.mirror = TableMirror(msg.table, msg.seat, self._violation)
            if self.notebook is not None:
                self.notebook.join(msg.table)
        elif self._stale or "recovered" in msg.reason:
            # the same table, but it may have been rebuilt by another process since we last
            # saw it: the hand cut by the crash is cancelled and replayed under the same
            # number, so what our mirror knows of that hand (cards, bets) is not this one's.
            # A new mirror starts from the snapshot that follows every ``moved``.
            self.mirror = TableMirror(msg.table, msg.seat, self._violation)
        self._stale = False
        self.table, self.seat = msg.table, msg.seat
        if self.mirror is not None:
            self.mirror.seat = msg.seat
        self._in_flight.clear()
        self._answered = 0
        self._progress.set()

    async def _follow_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        if not self._closing and self.tournament is not None and self.player_token is not None:
            await self.send(
                m.FollowTournament(tournament=self.tournament, token=self.player_token, lobby=False)
            )

    async def play_tournament(self, seconds: float | None = None) -> bool:
        """Play until busted or the tournament is finished. True if it ended either way."""
        deadline = None if seconds is None else time.monotonic() + seconds
        while not self.closed.is_set() and not self.busted and not self.tournament_over:
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                return False
            self._progress.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._progress.wait(), remaining)
        return self.busted or self.tournament_over

    async def leave(self) -> None:
        """Stand up from the table (at a cash table, a cash-out of the whole stack): at once
        between hands, else when the hand ends; the bot then acts no more there."""
        self.left = True
        if self.table is not None:
            await self.send(m.LeaveTable(table=self.table))

    async def close(self) -> None:
        self._closing = True
        if self._refollow is not None:
            self._refollow.cancel()
        await self._shut()
        if self.notebook is not None and self.table is not None:
            self.notebook.leave(self.table)
        self.closed.set()

    # ------------------------------------------------------------------ playing

    async def play(self, hands: int | None = None, seconds: float | None = None) -> int:
        """Play until this bot has seen ``hands`` more hands end, ``seconds`` pass, or the bot
        closes. Returns the hands seen."""
        assert self.mirror is not None
        start = self.mirror.hands_seen
        deadline = None if seconds is None else time.monotonic() + seconds
        while not self.closed.is_set() and not self.busted:
            if hands is not None and self.mirror.hands_seen - start >= hands:
                break
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                break
            self._progress.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._progress.wait(), remaining)
        return self.mirror.hands_seen - start

    def view(self, turn: m.Turn) -> View:
        mirror = self.mirror
        assert mirror is not None and self.seat is not None
        return View(
            table=mirror.table,
            hand=turn.hand,
            seat=self.seat,
            hole=mirror.hole,
            board=tuple(mirror.board),
            street=mirror.street,
            stacks=dict(mirror.stacks),
            bets=dict(mirror.bets),
            pot=mirror.pot,
            in_hand=mirror.in_hand,
            button=mirror.button,
            blinds=mirror.blinds,
            denominations=mirror.denominations,
            turn=turn,
            game=mirror.game,
            drew=dict(mirror.drew),
        )

    async def act(
        self,
        hand: int,
        decisions: Decision | Sequence[Decision] | None,
        in_turn: bool,
        decision: int | None = None,
    ) -> None:
        """Send the strategy's motions; ``decision`` (in turn) goes with the first only: more
        motions in one turn are string bets on purpose (the fuzzer's), for the rules to refuse.
        A decision with ``discard`` is a five-card draw's ``draw``, the others ``act``."""
        if decisions is None:
            return
        if isinstance(decisions, Decision):
            decisions = (decisions,)
        assert self.table is not None
        if not in_turn and self._budget() < 40:
            return  # optional gestures never risk the rate limit
        for i, d in enumerate(decisions):
            rid = next_id()
            self._requests.act(rid, hand)
            if in_turn:
                self._in_flight.add(rid)
                if i == 0 and self._latency_from is None:
                    self._latency_from = (hand, time.perf_counter())
            await self.send(self._motion(hand, d, decision if i == 0 else None, rid))

    def _motion(self, hand: int, d: Decision, decision: int | None, rid: int) -> m.Message:
        """The frame of one decision: a ``draw`` when it names a discard, else an ``act``."""
        assert self.table is not None
        if d.discard is not None:
            return m.Draw(table=self.table, hand=hand, cards=d.discard, decision=decision, id=rid)
        return m.Act(
            table=self.table,
            hand=hand,
            verb=d.verb,
            amount=d.amount,
            form=d.form,
            chips=d.chips,
            decision=decision,
            id=rid,
        )

    # ------------------------------------------------------------------ receiving

    async def _receive(self, msg: m.Message) -> None:
        seq = getattr(msg, "seq", None)
        if isinstance(msg, m.Snapshot):
            self._on_snapshot(msg)
        elif seq is not None and getattr(msg, "table", None) == self.table:
            await self._on_event(msg, seq)
        elif isinstance(msg, m.Turn):
            await self._on_turn(msg)
        elif isinstance(msg, m.Seated):
            self._on_seated(msg)
        elif isinstance(msg, m.Error):
            await self._on_error(msg)
        elif isinstance(msg, m.Moved):
            await self._on_moved(msg)
        elif isinstance(msg, m.TournamentState):
            self._on_tournament_state(msg)
        elif isinstance(msg, m.Notice) and msg.kind.startswith("oot_"):
            self._in_flight.clear()

    def _on_seated(self, msg: m.Seated) -> None:
        if msg.table == self.table:
            self.seat_token = msg.token
            self.seat = msg.seat
            if self.mirror is not None:
                self.mirror.seat = msg.seat

    def _on_tournament_state(self, msg: m.TournamentState) -> None:
        self.tournament_state = state = msg.state
        self.states += 1
        self.state_bytes += self.frame_size
        if state.get("phase") == "finished":
            self.tournament_over = True
            self._progress.set()
            return
        you = state.get("you")
        seated = isinstance(you, dict) and "table" in you
        if self.moves and state.get("phase") in PLAYING and you and not seated:
            # seated once, and out of the tournament now, though we may not have seen our last
            # hand (busted while we were reconnecting to another process)
            self._bust()

    def _on_snapshot(self, snap: m.Snapshot) -> None:
        mirror = self.mirror
        if mirror is None or snap.table != self.table:
            return
        self._resyncing = False
        mirror.apply_snapshot(snap)
        self._progress.set()

    async def _on_event(self, msg: m.Message, seq: int) -> None:
        mirror = self.mirror
        if mirror is None:
            return
        verdict = mirror.accept(seq)
        if verdict == "dup" or verdict == "early":
            return
        if verdict == "gap":
            await self._on_gap(mirror, seq)
            return
        self._resyncing = False
        self.last_event_at = time.monotonic()
        mirror.apply(msg)
        await self._follow_event(msg, mirror)
        extra = self.strategy.on_event(mirror, msg)
        if extra:
            await self.act(mirror.hand, extra, in_turn=False)

    async def _on_gap(self, mirror: TableMirror, seq: int) -> None:
        """An event came after a gap: ask for what was missed (once until it comes)."""
        if not self._resyncing:
            self._violation("seq_gap", f"got seq {seq} after {mirror.seq}")
            self._resyncing = True
            self.stats.resyncs += 1
            assert self.table is not None and mirror.seq is not None
            await self.send(m.Resync(table=self.table, last_seq=mirror.seq))

    async def _follow_event(self, msg: m.Message, mirror: TableMirror) -> None:
        """What an event the mirror applied means for this bot."""
        if isinstance(msg, m.ActionEvent):
            self._on_action(msg)
        elif isinstance(msg, m.DrewEvent):
            self._on_drew(msg)
        elif isinstance(msg, m.BoardEvent | m.HandStart):
            self._in_flight.clear()
            self._latency_from = None
        elif isinstance(msg, m.CutPrompt):
            await self._on_cut_prompt(msg)
        elif isinstance(msg, m.SeatEvent):
            await self._on_seat_event(msg)
        elif isinstance(msg, m.HandEnd):
            self._on_hand_end(msg, mirror)

    def _on_action(self, msg: m.ActionEvent) -> None:
        if msg.action not in PLAYER_ACTIONS:
            return
        if self.counts_table or (self.counts_own and msg.seat == self.seat):
            self.stats.actions += 1
        if msg.seat == self.seat:
            self._in_flight.clear()
            if self._latency_from is not None:
                hand, t0 = self._latency_from
                if hand == msg.hand:
                    self.stats.latency.add(time.perf_counter() - t0)
                    self.stats.acts += 1
                self._latency_from = None

    def _on_drew(self, msg: m.DrewEvent) -> None:
        """Five-card draw: a seat drew. Ours: the draw was taken (nothing left in flight)."""
        if self.counts_table or (self.counts_own and msg.seat == self.seat):
            self.stats.draws += 1
        if msg.seat == self.seat:
            self._in_flight.clear()
            self._latency_from = None

    async def _on_cut_prompt(self, msg: m.CutPrompt) -> None:
        if self.auto_cut and msg.seat == self.seat and self.table is not None:
            rid = next_id()
            self._requests.cuts.add(rid)
            await self.send(
                m.Cut(table=self.table, hand=msg.hand, position=self.rng.randrange(52), id=rid)
            )

    async def _on_seat_event(self, msg: m.SeatEvent) -> None:
        """Busted (no chip) or, at a casino cash table, short (chips under the big blind:
        dealt no cards until chips are added): buy again when ``rebuy``, else stop playing
        (a short cash player leaves with what he has: « se recaver ou quitter la table »)."""
        if msg.seat != self.seat or msg.status not in ("busted", "short") or self.left:
            return
        if self.rebuy and self.invite:
            assert self.table is not None
            if self.buy_in:  # a cash table keeps the seat: buy chips again
                await self.send(m.AddChips(table=self.table, amount=self.buy_in))
            elif msg.status == "busted":
                await self.send(m.TakeSeat(table=self.table, seat=msg.seat, token=self.invite))
            return
        if msg.status == "short":
            await self.leave()
        self._bust()

    def _bust(self) -> None:
        self.busted = True  # play() returns
        if self.tournament is not None:
            # a spectator now: the next occupant's cards are not ours
            self.seat = None
            if self.mirror is not None:
                self.mirror.seat = None
        self._progress.set()

    def _on_hand_end(self, msg: m.HandEnd, mirror: TableMirror) -> None:
        self._ended_hand = max(self._ended_hand, msg.hand)
        self._latency_from = None
        if self.counts_table or (
            self.counts_own and mirror.dealt_in and self.seat == min(mirror.dealt_in)
        ):
            self.stats.hands += 1
        notes = mirror.take_notes()
        if self.notebook is not None and notes is not None and not msg.cancelled:
            # a cancelled hand is replayed under the same number: only the replay is compared
            self.notebook.hand_in(notes)
        self._progress.set()

    async def _on_turn(self, turn: m.Turn) -> None:
        mirror = self.mirror
        if mirror is None or turn.table != self.table or self.left:
            return
        if turn.seat != self.seat:
            self._violation("turn", f"turn for seat {turn.seat}, we hold {self.seat}")
            return
        if turn.decision and turn.decision == self._answered:
            return  # a re-send of a decision answered: once per decision
        self._answered = turn.decision
        self.turn = turn
        self._retries = 0
        view = self.view(turn)
        decisions = self.strategy.draw(view) if turn.draw else self.strategy.decide(view)
        await self.act(turn.hand, decisions, in_turn=True, decision=turn.decision or None)

    async def _on_error(self, error: m.Error) -> None:
        self.errors.append(error)
        if len(self.errors) > 100:
            del self.errors[:50]
        if self._requests.late(error, self._ended_hand, bool(self.moves), self.stats):
            return
        code = error.code
        expected = self.strategy.expects_errors and (
            code.startswith("rule.") or code in EXPECTED_FOR_FUZZER
        )
        self.stats.error(code, expected)
        if code == "replaced":
            return
        if code == "rate_limited":
            self._in_flight.clear()  # a dropped act is never answered
            return
        if code in ("bad_token", "token_replayed", "token_expired") and self.seat_token:
            self.reconnect = False  # the seat cannot be resumed: stop for good
            if self.ws is not None:
                await self.ws.close()
            return
        if error.ref is None or error.ref not in self._in_flight:
            return
        self._in_flight.discard(error.ref)
        await self._answer_again(error)

    async def _answer_again(self, error: m.Error) -> None:
        """One of our acts was refused: ask the strategy again (a few times)."""
        turn, mirror = self.turn, self.mirror
        if self._in_flight or turn is None or mirror is None or mirror.hand != turn.hand:
            return  # another motion of ours may still be taken, or the game moved on
        hand = turn.hand
        self._latency_from = None
        self._retries += 1
        if self._retries > MAX_RETRIES:
            return
        view = self.view(turn)
        if self._retries == MAX_RETRIES:
            decision = Strategy.on_error(self.strategy, view, error)
        else:
            decision = self.strategy.on_error(view, error)
        # refused, so the decision is still open: answered again under the same id
        await self.act(hand, decision, in_turn=True, decision=turn.decision or None)
