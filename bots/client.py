"""The bot client: one websocket connection, one seat, one strategy.

    bot = Bot("ws://127.0.0.1:8000/ws", CallingStation(), nickname="alice")
    await bot.connect()
    created = await bot.create_table(name="bots", action_seconds=5)
    await bot.take_seat(created.table, 1, created.invite)
    await bot.play(hands=100)
    await bot.close()

Every frame is decoded and validated by :func:`protocol.decode_server`. Sequenced table events
go through the bot's :class:`~bots.mirror.TableMirror` (sequence checks, invariants); a gap
triggers a ``resync``; a dropped connection is resumed with the latest seat token and
``join(last_seq)``. When the server sends a ``turn``, the strategy's ``decide(view)`` is asked
and its decision is sent as ``act`` frames.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from protocol import PROTOCOL_VERSION, ProtocolError, decode_server, encode
from protocol import messages as m

from .mirror import PLAYER_ACTIONS, TableMirror
from .notebook import Notebook
from .stats import Stats
from .strategy import Decision, Strategy, View

__all__ = ["Bot", "BotError"]

log = logging.getLogger("brasseur.bots")

EXPECTED_FOR_FUZZER = frozenset(
    {
        "not_your_turn",
        "stale_hand",
        "out_of_range",
        "show_refused",
        "too_early",
        "chat_held",
        "not_seated",
    }
)
"""Error codes a fuzzer provokes on purpose (besides every ``rule.*`` code)."""
SEND_RATE = 40.0
"""Frames per second a bot allows itself (the gateway allows 50, bursts of 100)."""
MAX_RETRIES = 3
"""Replies to a refused act before the bot waits for its clock."""


class BotError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


_ids = itertools.count(1)


class Bot:
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
        self.url = url
        self.urls = [u for u in urls if u]
        """Other servers of the same deployment, tried in turn when ``url`` refuses to
        reconnect (its process died: another one took its tables over)."""
        self._refused: dict[str, float] = {}
        """When each server last refused a connection (monotonic)."""
        self._refollow: asyncio.Task[None] | None = None
        self.strategy = strategy
        self.nickname = nickname
        self.stats = stats or Stats()
        self.notebook = notebook
        self.auto_cut = auto_cut
        self.reconnect = reconnect
        self.counts_table = counts_table
        self.counts_own = counts_own
        self.rebuy = rebuy
        """Take the seat again (with a new starting stack) after busting."""
        self.rng = rng or random.Random()
        self.compression = compression
        self.trace: collections.deque[str] | None = (
            collections.deque(maxlen=trace) if trace else None
        )
        """The last ``trace`` messages received, attached to the first violations of each kind."""
        self.ws: ClientConnection | None = None
        self.session: str | None = None
        self.table: str | None = None
        self.seat: int | None = None
        self.invite: str | None = None
        self.seat_token: str | None = None
        self.mirror: TableMirror | None = None
        self.turn: m.Turn | None = None
        self.errors: list[m.Error] = []
        """Every error reply (most recent last, bounded)."""
        self.on_message: Callable[[m.Message], None] | None = None
        """Optional hook called with every decoded message (tests, tracing)."""
        self._reader: asyncio.Task[None] | None = None
        self._waiters: list[tuple[Callable[[m.Message], bool], asyncio.Future[m.Message]]] = []
        self._closing = False
        self._resyncing = False
        self._in_flight: set[int] = set()
        """Ids of the acts sent for the current turn that are not answered yet: while some
        are, a turn re-sent by the server (after another player's out-of-turn gesture, a
        resume...) is not answered twice."""
        self._turn_hand = 0
        self._cut_ids: set[int] = set()
        self._act_hands: dict[int, int] = {}
        """Request id of each act -> the hand it was for."""
        self._ended_hand = 0
        """The last hand whose hand_end this bot received."""
        self._retries = 0
        self._latency_from: tuple[int, float] | None = None
        self._tokens = 80.0
        self._refilled = time.monotonic()
        self._progress = asyncio.Event()
        self.last_event_at = time.monotonic()
        """When the last table event (or snapshot) arrived (to find stuck tables)."""
        self.busted = False
        """Our seat was lost with our last chip (and ``rebuy`` is off)."""
        self.closed = asyncio.Event()
        """Set when the bot stops for good (closed, or the connection was lost for good)."""
        self.tournament: str | None = None
        self.player_token: str | None = None
        self.tournament_state: dict[str, Any] = {}
        self.tournament_over = False
        self.moves = 0

    # ------------------------------------------------------------------ connection

    async def _open(self, url: str | None = None) -> ClientConnection:
        ws = await websockets.connect(
            url or self.url,
            max_size=2**20,
            compression=self.compression,
            ping_interval=None,
            open_timeout=60,
            close_timeout=2,
        )
        self.stats.connections += 1
        return ws

    async def connect(self, token: str | None = None, timeout: float = 60.0) -> m.Welcome:
        """Open the connection and say hello (with an invite or seat token, if any)."""
        self.ws = await self._open()
        self._reader = asyncio.create_task(self._read_loop(), name=f"bot-{self.nickname}")
        welcome = await self.request(
            m.Hello(version=PROTOCOL_VERSION, nickname=self.nickname, token=token),
            lambda msg: isinstance(msg, m.Welcome),
            timeout,
        )
        assert isinstance(welcome, m.Welcome)
        self.session = welcome.session
        return welcome

    async def create_table(self, name: str = "bots", **options: Any) -> m.TableCreated:
        """Create a friends table; ``options`` are fields of
        :class:`~protocol.messages.CreateTable`."""
        rid = next(_ids)
        created = await self.request(
            m.CreateTable(name=name, id=rid, **options),
            lambda msg: isinstance(msg, m.TableCreated) and msg.ref == rid,
            ref=rid,
        )
        assert isinstance(created, m.TableCreated)
        return created

    async def take_seat(
        self, table: str, seat: int, invite: str, timeout: float = 60.0
    ) -> m.Seated:
        self.table, self.seat, self.invite = table, seat, invite
        self.mirror = TableMirror(table, seat, self._violation)
        if self.notebook is not None:
            self.notebook.join(table)
        rid = next(_ids)
        seated = await self.request(
            m.TakeSeat(table=table, seat=seat, token=invite, id=rid),
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
        self.ws = await self._open()
        self._reader = asyncio.create_task(self._read_loop(), name=f"bot-{self.nickname}")
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

    # ------------------------------------------------------------------ tournaments

    async def register(self, tournament: str, timeout: float = 60.0) -> m.Registered:
        """Register for a tournament (under the hello nickname) and follow it: the server
        seats this connection at the start and moves it with every table change."""
        self.tournament = tournament
        rid = next(_ids)
        registered = await self.request(
            m.Register(tournament=tournament, id=rid),
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
        await self.send(m.FollowTournament(tournament=tournament, token=self.player_token))

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
        self.table, self.seat = msg.table, msg.seat
        if self.mirror is not None:
            self.mirror.seat = msg.seat
        self._in_flight.clear()
        self._progress.set()

    async def _follow_later(self, delay: float) -> None:
        await asyncio.sleep(delay)
        if not self._closing and self.tournament is not None and self.player_token is not None:
            await self.send(m.FollowTournament(tournament=self.tournament, token=self.player_token))

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

    async def close(self) -> None:
        self._closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 2)
        if self._refollow is not None:
            self._refollow.cancel()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        if self.notebook is not None and self.table is not None:
            self.notebook.leave(self.table)
        self.closed.set()

    def drop(self) -> None:
        """Cut the connection abruptly, as a network failure would (the bot resumes)."""
        if self.ws is not None:
            self.ws.transport.abort()

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
        )

    # ------------------------------------------------------------------ sending

    def _budget(self) -> float:
        """Frames we may still send now (a token bucket under the server's 50/s limit)."""
        now = time.monotonic()
        self._tokens = min(80.0, self._tokens + (now - self._refilled) * SEND_RATE)
        self._refilled = now
        return self._tokens

    async def send(self, message: m.Message) -> None:
        ws = self.ws
        if ws is None:
            raise BotError("not_connected", "connect first")
        while self._budget() < 1:
            await asyncio.sleep(1.0 / SEND_RATE)
        self._tokens -= 1
        self.stats.sent += 1
        with contextlib.suppress(ConnectionClosed):  # the read loop notices and resumes
            await ws.send(encode(message))

    async def send_raw(self, frame: bytes) -> None:
        """Send bytes as they are (malformed-frame tests only)."""
        assert self.ws is not None
        await self.ws.send(frame)

    async def act(
        self, hand: int, decisions: Decision | Sequence[Decision] | None, in_turn: bool
    ) -> None:
        if decisions is None:
            return
        if isinstance(decisions, Decision):
            decisions = (decisions,)
        assert self.table is not None
        if not in_turn and self._budget() < 40:
            return  # optional gestures never risk the rate limit
        for i, d in enumerate(decisions):
            rid = next(_ids)
            self._act_hands[rid] = hand
            if len(self._act_hands) > 256:
                for old in list(self._act_hands)[:128]:
                    del self._act_hands[old]
            if in_turn:
                self._in_flight.add(rid)
                if i == 0 and self._latency_from is None:
                    self._latency_from = (hand, time.perf_counter())
            await self.send(
                m.Act(
                    table=self.table,
                    hand=hand,
                    verb=d.verb,
                    amount=d.amount,
                    form=d.form,
                    chips=d.chips,
                    id=rid,
                )
            )

    # ------------------------------------------------------------------ requests

    def _expect(self, match: Callable[[m.Message], bool]) -> asyncio.Future[m.Message]:
        future: asyncio.Future[m.Message] = asyncio.get_running_loop().create_future()
        self._waiters.append((match, future))
        return future

    async def request(
        self,
        message: m.Message,
        match: Callable[[m.Message], bool],
        timeout: float = 60.0,
        ref: int | None = None,
    ) -> m.Message:
        """Send ``message`` and wait for the first reply ``match`` accepts. An error reply
        (with this ``ref``, or with no ref) raises :class:`BotError`."""

        def matches(msg: m.Message) -> bool:
            if isinstance(msg, m.Error):
                return msg.ref is None or msg.ref == ref
            return match(msg)

        future = self._expect(matches)
        await self.send(message)
        try:
            reply = await asyncio.wait_for(future, timeout)
        finally:
            self._waiters = [w for w in self._waiters if w[1] is not future]
        if isinstance(reply, m.Error):
            raise BotError(reply.code, reply.message)
        return reply

    # ------------------------------------------------------------------ receiving

    async def _read_loop(self) -> None:
        try:
            while True:
                ws = self.ws
                assert ws is not None
                try:
                    async for frame in ws:
                        await self._on_frame(frame)
                except ConnectionClosed:
                    pass
                if self._closing:
                    return
                resumable = self.seat_token or self.player_token
                if not (self.reconnect and resumable and await self._reconnect()):
                    if not self._closing:
                        self.stats.error("connection_lost")
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %s: read loop failed", self.nickname)
            self.stats.error("bot_crash")
        finally:
            for _, future in self._waiters:
                if not future.done():
                    future.set_exception(BotError("connection_lost", "the connection closed"))
            self.closed.set()
            self._progress.set()

    async def _reconnect(self) -> bool:
        delay = 0.05
        candidates = [self.url, *(u for u in self.urls if u != self.url)]
        for attempt in range(20 * len(candidates)):
            if self._closing:
                return False
            url = candidates[attempt % len(candidates)]
            try:
                self.ws = await self._open(url)
            except (OSError, TimeoutError, websockets.InvalidHandshake):
                self._refused[url] = time.monotonic()
                if attempt % len(candidates) == len(candidates) - 1:
                    await asyncio.sleep(delay)
                    delay = min(2.0, delay * 2)
                continue
            self.url = url
            self.stats.reconnects += 1
            self._in_flight.clear()
            self._latency_from = None
            self._resyncing = False
            if self.player_token is not None and self.tournament is not None:
                # a tournament player: the server puts us back on our seat, wherever it is
                await self.send(m.Hello(version=PROTOCOL_VERSION, nickname=self.nickname))
                await self.send(
                    m.FollowTournament(tournament=self.tournament, token=self.player_token)
                )
                return True
            assert self.table is not None and self.mirror is not None
            await self.send(
                m.Hello(version=PROTOCOL_VERSION, nickname=self.nickname, token=self.seat_token)
            )
            await self.send(m.JoinTable(table=self.table, last_seq=self.mirror.seq))
            return True
        return False

    async def _on_frame(self, frame: bytes | str) -> None:
        self.stats.frames += 1
        try:
            msg = decode_server(frame)
        except ProtocolError as exc:
            self._violation("bad_frame", f"{exc.code}: {exc.message}")
            return
        if self.on_message is not None:
            self.on_message(msg)
        if self.trace is not None:
            self.trace.append(f"{time.monotonic():.3f} {msg}"[:300])
        if self._waiters:
            for match, future in list(self._waiters):
                if not future.done() and match(msg):
                    future.set_result(msg)
        seq = getattr(msg, "seq", None)
        if isinstance(msg, m.Snapshot):
            self._on_snapshot(msg)
        elif seq is not None and getattr(msg, "table", None) == self.table:
            await self._on_event(msg, seq)
        elif isinstance(msg, m.Turn):
            await self._on_turn(msg)
        elif isinstance(msg, m.Seated):
            if msg.table == self.table:
                self.seat_token = msg.token
                self.seat = msg.seat
                if self.mirror is not None:
                    self.mirror.seat = msg.seat
        elif isinstance(msg, m.Error):
            await self._on_error(msg)
        elif isinstance(msg, m.Moved):
            await self._on_moved(msg)
        elif isinstance(msg, m.TournamentState):
            self.tournament_state = dict(msg.state)
            if msg.state.get("phase") == "finished":
                self.tournament_over = True
                self._progress.set()
        elif isinstance(msg, m.Notice) and msg.kind.startswith("oot_"):
            self._in_flight.clear()

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
            if not self._resyncing:
                self._violation("seq_gap", f"got seq {seq} after {mirror.seq}")
                self._resyncing = True
                self.stats.resyncs += 1
                assert self.table is not None and mirror.seq is not None
                await self.send(m.Resync(table=self.table, last_seq=mirror.seq))
            return
        self._resyncing = False
        self.last_event_at = time.monotonic()
        mirror.apply(msg)
        if isinstance(msg, m.ActionEvent):
            if msg.action in PLAYER_ACTIONS:
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
        elif isinstance(msg, m.BoardEvent | m.HandStart):
            self._in_flight.clear()
            self._latency_from = None
        elif isinstance(msg, m.CutPrompt):
            if self.auto_cut and msg.seat == self.seat and self.table is not None:
                rid = next(_ids)
                self._cut_ids.add(rid)
                await self.send(
                    m.Cut(table=self.table, hand=msg.hand, position=self.rng.randrange(52), id=rid)
                )
        elif isinstance(msg, m.SeatEvent):
            if msg.seat == self.seat and msg.status == "busted":
                if self.rebuy and self.invite:
                    assert self.table is not None
                    await self.send(m.TakeSeat(table=self.table, seat=msg.seat, token=self.invite))
                else:
                    self.busted = True  # play() returns
                    if self.tournament is not None:
                        # a spectator now: the next occupant's cards are not ours
                        self.seat = None
                        mirror.seat = None
                    self._progress.set()
        elif isinstance(msg, m.HandEnd):
            self._ended_hand = max(self._ended_hand, msg.hand)
            self._latency_from = None
            if self.counts_table or (
                self.counts_own and mirror.dealt_in and self.seat == min(mirror.dealt_in)
            ):
                self.stats.hands += 1
            notes = mirror.take_notes()
            if self.notebook is not None and notes is not None:
                self.notebook.hand_in(notes)
            self._progress.set()
        extra = self.strategy.on_event(mirror, msg)
        if extra:
            await self.act(mirror.hand, extra, in_turn=False)

    async def _on_turn(self, turn: m.Turn) -> None:
        mirror = self.mirror
        if mirror is None or turn.table != self.table:
            return
        if turn.seat != self.seat:
            self._violation("turn", f"turn for seat {turn.seat}, we hold {self.seat}")
            return
        if self._in_flight and turn.hand == self._turn_hand:
            return  # our answer to this turn is on its way
        self.turn = turn
        self._turn_hand = turn.hand
        self._retries = 0
        await self.act(turn.hand, self.strategy.decide(self.view(turn)), in_turn=True)

    async def _on_error(self, error: m.Error) -> None:
        self.errors.append(error)
        if len(self.errors) > 100:
            del self.errors[:50]
        code = error.code
        if error.ref is not None and error.ref in self._cut_ids:
            self._cut_ids.discard(error.ref)
            if code == "not_your_turn":  # the cut came after the server's cut timer had fired
                self.stats.late_cuts += 1
                return
        if len(self._cut_ids) > 8:
            self._cut_ids.clear()
        acted_in = self._act_hands.pop(error.ref, None) if error.ref is not None else None
        if code == "stale_hand" and acted_in is not None and acted_in <= self._ended_hand:
            self.stats.late_acts += 1  # the hand ended while we answered: a race, not a fault
            return
        if code == "not_seated" and acted_in is not None and self.moves:
            self.stats.late_acts += 1  # we were moved to another table while answering
            return
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
        await self.act(hand, decision, in_turn=True)

    def _violation(self, kind: str, detail: str) -> None:
        self.stats.violation(kind, f"[{self.nickname}] {detail}")
        if self.trace is not None and self.stats.violations[kind] <= 2:
            self.stats.traces.append([f"{kind}: {detail}", *self.trace])
