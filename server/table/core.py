"""The state of a pure table and the helpers every part of it uses (no I/O, no clock, no
randomness: the dealer and ``randbelow`` are injected, ``now`` is passed in)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from protocol import messages as m
from protocol.errors import ErrorCode, ProtocolError
from server.engine import AnteFormat, Blinds, Hand, load_profile
from server.engine.positions import Positions, positions_to_list
from server.table.commands import Conn, NextDeal, SetStack
from server.table.config import TableConfig
from server.table.dealer import Dealer, DealtHand
from server.table.events import ChatEvent, Seat
from server.table.outbox import Outbox
from server.table.phases import TablePhase, Trigger, next_phase
from server.table.policy import DealingPolicy
from server.table.seats import HeldChat, SeatState, Timers, Watcher
from server.table.translate import HandLog
from server.table.turns import DecisionBook

__all__ = ["SNAPSHOT_VERSION", "TableCore"]

CHAT_HELD_PER_SENDER = 5
"""Chat messages one sender may have waiting for the end of a hand."""
CHAT_HELD_TOTAL = 60
"""Chat messages a table holds during one hand, all senders together."""
CHAT_RELEASE = 10
"""Held messages released at once; the rest follow, as many every CHAT_RELEASE_EVERY."""
CHAT_RELEASE_EVERY = 1.0

SNAPSHOT_VERSION = 2
"""Version of the saved table snapshot (1: before the pure table; read the same way)."""


class TableCore:
    def __init__(
        self,
        config: TableConfig,
        dealer: Dealer,
        policy: DealingPolicy,
        randbelow: Callable[[int], int],
        *,
        wall: Callable[[], str],
        seq: int = 0,
    ) -> None:
        self.config = config
        self.table = config.table_id
        self.profile = load_profile(config.profile)
        self.dealer = dealer
        self.policy = policy
        self.randbelow = randbelow
        self.wall = wall
        """UTC wall time for hand records (injected: the table reads no clock)."""
        self.blinds = Blinds(
            sb=config.sb, bb=config.bb, ante=config.ante, ante_format=AnteFormat(config.ante_format)
        )
        """The blinds of the next hand (a tournament's director sets them with every deal)."""
        self.out = Outbox(self.table, seq)
        self.seats: dict[int, SeatState] = {}
        self.phase = TablePhase.WAITING
        self.hand_no = 0
        self.positions: Positions | None = None
        self.replay_positions: Positions | None = None
        self.replay_dealt_in: list[int] | None = None
        self.setup_refused: str | None = None
        self.halt_reason = ""
        """Why the table is halted (its store, or a hand it could not deal): health says it."""
        """Why the last hand could not be dealt (shown halted until a hand is dealt)."""
        """The players of a hand a crash cut (cdc 5.4: it is dealt again to them only)."""
        self.cancelled_hand = False
        self.hand: Hand | None = None
        self.dealt: DealtHand | None = None
        self.log: HandLog | None = None
        self.dealt_in: list[int] = []
        self.start_stacks: dict[int, int] = {}
        self.timers = Timers()
        self.decisions = DecisionBook()
        """The decisions offered to the players (ids, the last ``turn`` sent)."""
        self.held_chat = HeldChat()
        self.release: list[tuple[int | None, str, str]] = []
        """Chat held during the last hand, released a few at a time (paced)."""
        self.held: list[Any] | None = None
        """Hand-for-hand: the rest of an all-in hand, face down until revealed (cdc 2.7)."""
        self.hand_for_hand = False
        self.directive: NextDeal | None = None
        self.level = 0
        """The tournament level of the hand being dealt (from the director's NextDeal)."""
        self.waiting_reason = ""
        self.between_ops: list[SetStack] = []
        self.private_holes: list[dict[str, Any]] = []
        """Hole cards of the last completed hands, for the director only (cdc 10.6)."""
        self.hands_played = 0
        self.paused = False
        """The host paused the table: the hand in play ends, no new hand is dealt."""
        self.next_blinds: Blinds | None = None
        """Blinds the host set during a hand: they apply from the next deal."""
        self.requests: dict[int, Any] = {}
        """Seat requests waiting for the host (a table that asks him): seat -> the Sit or
        BuyIn command, replayed with ``approved`` when he approves."""
        self.now = 0.0
        """The time of the command or tick being handled (views show clocks from it)."""
        self.internal_errors: list[str] = []
        """Bugs caught while handling a command (the shell logs them; the table goes on)."""

    # ------------------------------------------------------------------ helpers

    def goto(self, trigger: Trigger) -> None:
        self.phase = next_phase(self.phase, trigger)

    @property
    def closed(self) -> bool:
        return self.phase is TablePhase.CLOSED

    def in_hand(self) -> bool:
        return self.phase in (
            TablePhase.CUT,
            TablePhase.BETTING,
            TablePhase.HELD,
            TablePhase.SHOWDOWN,
        )

    def playing(self) -> bool:
        """Cards are out (betting, held or showdown): the hand object is the live hand."""
        return self.phase in (TablePhase.BETTING, TablePhase.HELD, TablePhase.SHOWDOWN)

    @property
    def watchers(self) -> dict[str, Watcher]:
        return self.out.watchers

    @property
    def seq(self) -> int:
        return self.out.seq

    def seat_of(self, conn: Conn) -> int | None:
        """The seat of the player this connection speaks for, if he sits here."""
        if conn.player is None:
            return None
        for state in self.seats.values():
            if state.player == conn.player:
                return state.seat
        return None

    def need_seat(self, conn: Conn) -> SeatState:
        seat = self.seat_of(conn)
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you have no seat at this table")
        return self.seats[seat]

    def error(
        self, cid: str, code: str, message: str, ref: int | None, rule: str | None = None
    ) -> None:
        self.out.send(
            cid,
            m.Error(
                code=str(code), message=message[:500], rule=rule or None, ref=ref, table=self.table
            ),
        )

    def notice(self, cid: str | None, kind: str, text: str, rule: str = "") -> None:
        self.out.send(cid, m.Notice(table=self.table, kind=kind, text=text[:500], rule=rule))

    def seat_change(self, state: SeatState, status: str) -> Seat:
        stack = state.stack
        hand = self.hand
        if hand is not None and self.playing() and str(state.seat) in hand.index:
            stack = hand.stack[hand.index[str(state.seat)]]  # chips behind, live
        return Seat(seat=state.seat, player=state.name, stack=stack, status=status)

    def seat_event(self, state: SeatState, status: str) -> None:
        self.out.emit([self.seat_change(state, status)])

    def director_says(self, text: str) -> None:
        self.say(None, "director", text)

    def host_says(self, text: str) -> None:
        self.say(None, "host", text)

    def say(self, seat: int | None, player: str, text: str) -> None:
        """A line of table chat, now (``seat`` None: a spectator, the director, the host)."""
        self.out.emit([ChatEvent(seat=seat, player=player, text=text)])

    # ------------------------------------------------------------------ chat

    def hold_chat(self, key: str, cid: str, seat: int | None, name: str, text: str) -> None:
        """One player to a hand (cdc 11.3-11.4, tda 62): table chat waits for the pot to be
        awarded, capped per sender and per hand; released paced after the hand."""
        held = self.held_chat
        count = held.per_sender.get(key, 0)
        if count >= CHAT_HELD_PER_SENDER or len(held.items) >= CHAT_HELD_TOTAL:
            raise ProtocolError(
                ErrorCode.CHAT_LIMIT,
                f"at most {CHAT_HELD_PER_SENDER} messages wait for the end of a hand (cdc 11.3)",
            )
        held.per_sender[key] = count + 1
        held.items.append((seat, name, text))
        self.notice(cid, "chat_held", "held until the hand ends", "cdc-11.3")

    def release_chat(self, now: float) -> None:
        """Release held chat a few messages at a time, never in one burst (a burst to every
        watcher at once would overflow the send queues of the players)."""
        batch, self.release = self.release[:CHAT_RELEASE], self.release[CHAT_RELEASE:]
        if batch:
            self.out.emit([ChatEvent(seat=s, player=name, text=text) for s, name, text in batch])
        self.timers.chat = now + CHAT_RELEASE_EVERY if self.release else None

    # ------------------------------------------------------------------ snapshot

    def snapshot(self) -> tuple[int, dict[str, Any]]:
        """What a restart needs (saved with every write that changes seats or hands). During
        a hand the players in it are saved with their start-of-hand stacks: a hand cut by a
        crash is cancelled with every bet returned (cdc 5.4)."""
        in_hand = self.in_hand()

        def pos(p: Positions | None) -> list[int] | None:
            return None if p is None else positions_to_list(p)

        data = {
            "version": SNAPSHOT_VERSION,
            "hand": self.hand_no,
            "in_hand": in_hand,
            "cancelled": self.cancelled_hand,
            "positions": pos(self.positions),
            "replay": pos(self.replay_positions),
            "replay_dealt_in": self.replay_dealt_in,
            "dealt_in": self.dealt_in if in_hand else [],
            "seats": [
                {
                    "seat": s.seat,
                    "pid": s.player,
                    "name": s.name,
                    "stack": self.start_stacks.get(s.seat, s.stack) if in_hand else s.stack,
                    "time_bank": s.time_bank,
                    "new": s.new,
                    "sitting_out": s.sitting_out,
                    "waits": s.waits_for_button,
                    "dead_hands": s.dead_hands,
                    "returning": s.returning,
                    **({"leaving": True} if s.leaving else {}),
                }
                for s in self.seats.values()
                # a seat left during the hand is kept (its chips are his until the ledger
                # pays them out, issue 27); a tournament's removed player is the director's
                if not (s.leaving and self.policy.directed)
            ],
        }
        if self.paused:
            data["paused"] = True  # the host's pause survives a restart
        cash = getattr(self, "cash", None)
        if cash is not None:
            data["cash"] = cash.to_json()  # server.table.cash: the ledger with its stacks
        return self.hand_no, data
