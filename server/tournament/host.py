"""The live side of a tournament in one server process: its tables and its players' connections.

The host carries out the director's decisions on the :class:`~server.table.actor.TableActor` of
each table it runs (seat, remove, deal, hold and reveal, stacks), reports what the tables say
(ready, all-in hand-for-hand, hand ended) to the coordinator, and keeps every registered
player's connection on his current seat: when the director moves him (balancing, a broken table,
the final table) the connection is re-attached to the new table and told with ``moved``.

Every process of a Redis tournament runs a host and sees every decision; each host acts on the
tables it runs (``directory``) and on the connections it holds.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from protocol import ErrorCode, ProtocolError, encode
from protocol import messages as m
from server.gateway.auth import TokenAuthority
from server.table.actor import Client, Directive, HandReport, Store, TableActor
from server.table.clock import Clock
from server.table.config import TableConfig
from server.table.dealer import Dealer

from .config import TournamentConfig
from .coordinator import Adjusted, ConsoleRefused, Coordinator, TableNote
from .decisions import (
    BountyAwarded,
    BreakTable,
    ChipRace,
    Deal,
    Eliminated,
    FinalTable,
    Finished,
    MovePlayer,
    Rebought,
    Refused,
    Registered,
    RemovePlayer,
    ShowdownReveal,
    TableAssignment,
    Wait,
)
from .results import results_csv, results_json

__all__ = ["HostSettings", "TournamentHost"]

log = logging.getLogger("brasseur.tournament")

CONSOLE_OPS = frozenset(
    {
        "start",
        "pause",
        "resume",
        "move",
        "warn",
        "penalty",
        "disqualify",
        "adjust",
        "folded",
        "rule",
    }
)


@dataclass(frozen=True, slots=True, kw_only=True)
class HostSettings:
    """Table timings of a tournament (the ``[server]`` table of its TOML, else defaults)."""

    action_seconds: float = 30.0
    time_bank_seconds: float = 60.0
    cut_seconds: float = 8.0
    next_hand_seconds: float = 3.0
    showdown_seconds: float = 2.0
    start_when_registered: int = 0
    """Start by itself once this many players registered (0: the director starts it)."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HostSettings:
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)


class _Seat:
    """The host's view of where a player sits (from the decisions)."""

    __slots__ = ("seat", "table")

    def __init__(self, table: int, seat: int) -> None:
        self.table = table
        self.seat = seat


class TournamentHost:
    def __init__(
        self,
        tid: str,
        config: TournamentConfig,
        settings: HostSettings,
        *,
        clock: Clock,
        dealer: Callable[[], Dealer],
        store: Store | None,
        auth: TokenAuthority,
        add_table: Callable[[TableActor], None],
        drop_table: Callable[[str], None],
        persist: Callable[[str, str], None],
        process: str = "local",
        url: str = "",
    ) -> None:
        self.tid = tid
        self.config = config
        self.settings = settings
        self.clock = clock
        self.dealer = dealer
        self.store = store
        self.auth = auth
        self.add_table = add_table
        self.drop_table = drop_table
        self.persist = persist
        self.process = process
        self.url = url
        self.coordinator: Coordinator | None = None
        self.tables: dict[int, TableActor] = {}
        self.directory: dict[int, str] = {}
        """Table -> process running it (every table of a local tournament is ours)."""
        self.urls: dict[str, str] = {}
        self.names: dict[str, str] = {}
        self.where: dict[str, _Seat] = {}
        self.clients: dict[str, Client] = {}
        self.followers: dict[str, Client] = {}
        self.pending: dict[str, tuple[Client, int | None]] = {}
        self.registered = 0
        self.finished = False
        self._dirty: asyncio.TimerHandle | None = None
        self.present: set[str] = set()
        self.consoles: dict[str, Client] = {}
        """Connections that sent a valid director's command (told of refused ones)."""
        self.observers: list[Callable[[list[Any]], None]] = []
        """Called with every batch of decisions before it is applied (tests, audit logs)."""

    # ------------------------------------------------------------------ names

    def table_name(self, table: int) -> str:
        return f"{self.tid}-{table}"

    def table_number(self, name: str) -> int | None:
        prefix = f"{self.tid}-"
        if name.startswith(prefix) and name[len(prefix) :].isdigit():
            return int(name[len(prefix) :])
        return None

    # ------------------------------------------------------------------ players

    def register(self, client: Client, nickname: str, ref: int | None) -> None:
        assert self.coordinator is not None
        pid = secrets.token_urlsafe(9)
        self.pending[pid] = (client, ref)
        self.coordinator.submit("register", {"player": pid, "name": nickname})

    def player_token(self, pid: str) -> str:
        return self.auth.issue(
            {"k": "player", "t": self.tid, "p": pid, "n": self.names.get(pid, "")}, 30 * 86400
        )

    def director_token(self) -> str:
        return self.auth.director(self.tid)

    def follow(self, client: Client, token: str | None) -> None:
        """Watch the tournament; with a player token, sit at one's seat and follow moves."""
        pid: str | None = None
        if token:
            claims = self.auth.verify(token, "player")
            if claims.get("t") != self.tid:
                raise ProtocolError(ErrorCode.BAD_TOKEN, "this token is for another tournament")
            pid = str(claims["p"])
            client.pid = pid
            old = self.clients.get(pid)
            self.clients[pid] = client
            if old is not None and old.cid != client.cid:
                self.followers.pop(old.cid, None)
        self.followers[client.cid] = client
        client.deliver(encode(self._state_message(client)))
        if pid is not None:
            self._attach(pid, reason="")

    def gone(self, client: Client) -> None:
        self.followers.pop(client.cid, None)
        self.consoles.pop(client.cid, None)
        if client.pid is not None and self.clients.get(client.pid) is client:
            del self.clients[client.pid]

    def _attach(self, pid: str, reason: str, from_table: int | None = None) -> None:
        """Put the player's connection on his current seat, telling him (``moved``)."""
        client = self.clients.get(pid)
        where = self.where.get(pid)
        if client is None or where is None:
            return
        if pid not in self.present and self.coordinator is not None:
            self.present.add(pid)  # he showed up: not a no-show (fpc 2-2)
            self.coordinator.submit("present", {"player": pid})
        owner = self.directory.get(where.table, self.process)
        url = "" if owner == self.process else self.urls.get(owner, "")
        tables = getattr(client, "tables", None)
        if isinstance(tables, set):
            if from_table is not None:
                tables.discard(self.table_name(from_table))
            tables.add(self.table_name(where.table))
        client.deliver(
            encode(
                m.Moved(
                    tournament=self.tid,
                    table=self.table_name(where.table),
                    seat=where.seat,
                    from_table="" if from_table is None else self.table_name(from_table),
                    reason=reason,
                    url=url,
                )
            )
        )
        actor = self.tables.get(where.table)
        if actor is not None:
            actor.post("attach", client, None)

    def console(self, client: Client, msg: m.Direct) -> None:
        """A director's command (director token checked)."""
        assert self.coordinator is not None
        claims = self.auth.verify(msg.token, "director")
        if claims.get("t") != self.tid:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "this token is for another tournament")
        if msg.op not in CONSOLE_OPS:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, f"unknown op {msg.op!r}")
        self.consoles[client.cid] = client
        player = msg.player or ""
        if msg.op in ("move", "warn", "penalty", "disqualify", "adjust") and (
            player not in self.names
        ):
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, "unknown player")
        if msg.op == "start":
            self.coordinator.submit("start", {})
        elif msg.op in ("pause", "resume"):
            self.coordinator.submit(msg.op, {"text": msg.text or ""})
        elif msg.op == "disqualify":  # tda 71, cdc 11.x: chips removed, ranked now
            self.coordinator.submit("abandon", {"player": player, "dq": True, "text": msg.text})
        elif msg.op == "adjust":
            if msg.amount is None or msg.amount <= 0 or not msg.text:
                raise ProtocolError(ErrorCode.OUT_OF_RANGE, "a positive stack and a reason")
            self.coordinator.submit(
                "adjust", {"player": player, "stack": msg.amount, "reason": msg.text}
            )
        elif msg.op == "move":
            table = self.table_number(msg.table or "")
            if table is None or msg.seat is None:
                raise ProtocolError(ErrorCode.OUT_OF_RANGE, "a table and a seat")
            self.coordinator.submit("move", {"player": player, "table": table, "seat": msg.seat})
        elif msg.op in ("warn", "penalty"):
            if msg.op == "penalty" and not 1 <= (msg.hands or 0) <= 100:
                raise ProtocolError(ErrorCode.OUT_OF_RANGE, "1 to 100 hands")
            if player not in self.where:
                raise ProtocolError(ErrorCode.OUT_OF_RANGE, "the player has no seat")
            self.coordinator.submit(
                msg.op, {"player": player, "hands": msg.hands or 0, "text": msg.text or ""}
            )
        elif msg.op == "rule":  # a ruling on a pending call (``amount`` is the call's number)
            if msg.amount is None or not msg.text:
                raise ProtocolError(ErrorCode.OUT_OF_RANGE, "the call's number and a ruling")
            self.coordinator.submit("rule", {"call": msg.amount, "text": msg.text})
        elif msg.op == "folded":
            self._folded(client, msg.table or "")

    def abandon(self, token: str) -> None:
        """The player announces he leaves (cdc 1.9, fpc 4-3, ligue 6.23): chips removed,
        ranked at the announcement."""
        assert self.coordinator is not None
        claims = self.auth.verify(token, "player")
        if claims.get("t") != self.tid:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "this token is for another tournament")
        pid = str(claims["p"])
        if pid not in self.where:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you have no seat in this tournament")
        self.coordinator.submit("abandon", {"player": pid})

    def call_director(self, client: Client, table: str, hand: int | None, text: str) -> None:
        """A seated player calls the director to his table (cdc 1.3: the director decides)."""
        assert self.coordinator is not None
        pid = client.pid
        where = self.where.get(pid) if pid else None
        if pid is None or where is None or self.table_name(where.table) != table:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you have no seat at this table")
        self.coordinator.submit("call", {"player": pid, "hand": hand, "text": text})

    def _folded(self, client: Client, table: str) -> None:
        """cdc 10.6: the director may look at folded hands (collusion check): every hole card
        of the table's last hands, from the table's private log."""
        number = self.table_number(table)
        actor = self.tables.get(number) if number is not None else None
        if actor is None:
            raise ProtocolError(ErrorCode.UNKNOWN_TABLE, "no such table here")
        hands = actor.private_holes[-20:]
        client.deliver(
            encode(
                m.TournamentState(
                    tournament=self.tid,
                    state={"folded": {"table": table, "hands": hands}},
                )
            )
        )

    # ------------------------------------------------------------------ tables -> director

    def ready(self, table: TableActor) -> None:
        number = self.table_number(table.table)
        if self.coordinator is not None and number is not None:
            self.coordinator.submit("ready", {"table": number})

    def allin(self, table: TableActor) -> None:
        number = self.table_number(table.table)
        if self.coordinator is not None and number is not None:
            self.coordinator.submit("allin", {"table": number})

    def hand_ended(self, table: TableActor, report: HandReport) -> None:
        number = self.table_number(table.table)
        if self.coordinator is None or number is None:
            return
        p = report.positions
        self.coordinator.submit(
            "ended",
            {
                "table": number,
                "hand": report.hand_no,
                "positions": [p.button, p.sb_slot, p.big_blind],
                "stacks": {str(s): [pid, v] for s, (pid, v) in report.stacks.items()},
                "busts": [[*list(b[:3]), list(b[3])] for b in report.busts],
                "cancelled": report.cancelled,
            },
        )

    # ------------------------------------------------------------------ director -> tables

    def apply(self, decisions: list[Any]) -> None:
        for observe in self.observers:
            observe(decisions)
        for dec in decisions:
            try:
                self._apply(dec)
            except Exception:
                log.exception("tournament %s: applying %s", self.tid, dec)
        self._changed()

    def _mine(self, table: int) -> TableActor | None:
        return self.tables.get(table)

    def _apply(self, dec: Any) -> None:
        if isinstance(dec, Registered):
            self.names[dec.player_id] = dec.name
            self.registered += 1
            pending = self.pending.pop(dec.player_id, None)
            if pending is not None:
                client, ref = pending
                client.pid = dec.player_id
                self.clients[dec.player_id] = client
                self.followers[client.cid] = client
                token = self.player_token(dec.player_id)
                client.deliver(
                    encode(
                        m.Registered(
                            tournament=self.tid, player=dec.player_id, token=token, ref=ref
                        )
                    )
                )
            if dec.table_id is not None and dec.seat is not None:
                self._seat(dec.table_id, dec.seat, dec.player_id, dec.stack, dec.waits_for_button)
                self._attach(dec.player_id, "late entry")
            if (
                self.settings.start_when_registered
                and self.registered == self.settings.start_when_registered
                and self.coordinator is not None
            ):
                self.coordinator.submit("start", {})
        elif isinstance(dec, Refused):
            pending = self.pending.pop(dec.player_id, None)
            if pending is not None:
                client, ref = pending
                client.deliver(
                    encode(
                        m.Error(
                            code=f"tournament.{dec.reason.value}",
                            message=dec.detail or dec.reason.value.replace("_", " "),
                            ref=ref,
                        )
                    )
                )
        elif isinstance(dec, TableAssignment):
            self._open(dec)
        elif isinstance(dec, Deal):
            actor = self._mine(dec.table_id)
            if actor is not None:
                directive = Directive(
                    hand_no=dec.hand_no,
                    blinds=dec.blinds,
                    positions=dec.positions,
                    hand_for_hand=dec.hand_for_hand,
                    level=dec.level_number,
                )
                actor.post("t_deal", None, directive)
        elif isinstance(dec, Wait):
            actor = self._mine(dec.table_id)
            if actor is not None:
                actor.post("t_wait", None, dec.reason.value)
        elif isinstance(dec, ShowdownReveal):
            actor = self._mine(dec.table_id)
            if actor is not None:
                actor.post("t_reveal", None, None)
        elif isinstance(dec, MovePlayer):
            self._move(
                dec.player_id,
                dec.from_table,
                dec.from_seat,
                dec.to_table,
                dec.to_seat,
                dec.stack,
                dec.waits_for_button,
                dec.reason,
            )
        elif isinstance(dec, BreakTable):
            for draw in dec.draws:
                self._move(
                    draw.player_id,
                    draw.from_table,
                    draw.from_seat,
                    draw.to_table,
                    draw.to_seat,
                    draw.stack,
                    draw.waits_for_button,
                    "table broken",
                )
            self._close(dec.table_id)
        elif isinstance(dec, FinalTable):
            for draw in dec.draws:
                self._unseat(draw.from_table, draw.from_seat, draw.player_id, "final table")
            for tid in dec.closed_tables:
                self._close(tid)
            self._open(dec.table, "final table", {d.player_id: d.from_table for d in dec.draws})
        elif isinstance(dec, ChipRace):
            actor = self._mine(dec.table_id)
            for line in dec.lines:
                if actor is not None:
                    note = (
                        f"colour-up of the {dec.removed}s: {self.names.get(line.player_id)} "
                        f"{line.stack_before} -> {line.stack_after}"
                        + (f" (cards {' '.join(line.cards)})" if line.cards else "")
                        + " (cdc 3.2)"
                    )
                    actor.post(
                        "t_stack", None, (line.seat, line.player_id, line.stack_after, note, False)
                    )
        elif isinstance(dec, Rebought):
            self.where[dec.player_id] = _Seat(dec.table_id, dec.seat)
            self._seat(dec.table_id, dec.seat, dec.player_id, dec.chips, False)
            self._attach(dec.player_id, "rebuy")
        elif isinstance(dec, BountyAwarded):
            where = self.where.get(dec.player_id)
            if where is not None and dec.chips:
                actor = self._mine(where.table)
                if actor is not None:
                    note = f"bounty: {self.names.get(dec.player_id)} +{dec.chips}"
                    actor.post("t_stack", None, (where.seat, dec.player_id, dec.chips, note, True))
        elif isinstance(dec, ConsoleRefused):
            for console in list(self.consoles.values()):
                console.deliver(
                    encode(m.Error(code="tournament.refused", message=f"{dec.op}: {dec.text}"))
                )
        elif isinstance(dec, TableNote):
            actor = self._mine(dec.table_id)
            if actor is not None:
                if dec.dead_hands:
                    actor.post("t_penalty", None, (dec.player_id, dec.dead_hands))
                actor.post("t_note", None, dec.text)
        elif isinstance(dec, Adjusted):
            actor = self._mine(dec.table_id)
            if actor is not None:
                note = f"director: {self.names.get(dec.player_id)} now {dec.stack} ({dec.reason})"
                actor.post("t_stack", None, (dec.seat, dec.player_id, dec.stack, note, False))
        elif isinstance(dec, RemovePlayer):
            self._unseat(dec.table_id, dec.seat, dec.player_id, dec.reason.value)
            self.where.pop(dec.player_id, None)
        elif isinstance(dec, Eliminated):
            self.where.pop(dec.player_id, None)
        elif isinstance(dec, Finished):
            self.finished = True
            results = dec.results
            self.persist(f"tournament:{self.tid}:results.csv", results_csv(results))
            self.persist(f"tournament:{self.tid}:results.json", results_json(results, self.config))
            for tid in list(self.tables):
                self._close(tid)

    def _open(
        self, a: TableAssignment, reason: str = "seated", came_from: dict[str, int] | None = None
    ) -> None:
        owner = self.directory.setdefault(a.table_id, self.process)
        for seat, pid in a.seats.items():
            self.where[pid] = _Seat(a.table_id, seat)
        came_from = came_from or {}
        if owner != self.process:
            for pid in a.seats.values():
                self._attach(pid, reason, came_from.get(pid))
            return
        config = self.table_config(a.table_id, a.max_seats)
        actor = TableActor(config, self.clock, self.dealer(), store=self.store)
        actor.director = self
        self.tables[a.table_id] = actor
        for seat, pid in a.seats.items():
            actor.post("t_seat", None, (seat, pid, self.names.get(pid, pid), a.stacks[pid], False))
        self.add_table(actor)
        actor.start()
        for pid in a.seats.values():
            self._attach(pid, reason, came_from.get(pid))

    def table_config(self, table: int, max_seats: int) -> TableConfig:
        """The configuration of one of the tournament's tables (the same in every process: a
        process taking over the tables of a dead one rebuilds them with it)."""
        return TableConfig(
            table_id=self.table_name(table),
            name=f"{self.config.name} — table {table}",
            profile=self.config.profile,
            max_seats=max_seats,
            starting_stack=self.config.starting_stack,
            denominations=self.config.denominations,
            action_seconds=self.settings.action_seconds,
            time_bank_seconds=self.settings.time_bank_seconds,
            cut_seconds=self.settings.cut_seconds,
            next_hand_seconds=self.settings.next_hand_seconds,
            showdown_seconds=self.settings.showdown_seconds,
            extra={"tournament": self.tid},
        )

    def reattach(self, table: int) -> None:
        """Put the connections held here of the players seated at ``table`` back on their
        seats, or send them to the process now running it (the table was taken over)."""
        for pid, where in list(self.where.items()):
            if where.table == table and pid in self.clients:
                self._attach(pid, "table recovered")

    def adopt(self, table: int, actor: TableActor) -> None:
        """Run a table recovered from the shared store (another process died)."""
        actor.director = self
        self.tables[table] = actor
        self.directory[table] = self.process
        self.add_table(actor)
        actor.start()

    def _seat(self, table: int, seat: int, pid: str, stack: int, waits: bool) -> None:
        self.where[pid] = _Seat(table, seat)
        actor = self._mine(table)
        if actor is not None:
            actor.post("t_seat", None, (seat, pid, self.names.get(pid, pid), stack, waits))

    def _unseat(self, table: int, seat: int, pid: str, status: str) -> None:
        actor = self._mine(table)
        if actor is not None:
            actor.post("t_remove", None, (seat, pid, status[:16]))

    def _move(
        self,
        pid: str,
        from_table: int,
        from_seat: int,
        to_table: int,
        to_seat: int,
        stack: int,
        waits: bool,
        reason: str,
    ) -> None:
        self._unseat(from_table, from_seat, pid, "moved")
        self._seat(to_table, to_seat, pid, stack, waits)
        self._attach(pid, reason, from_table)

    def _close(self, table: int) -> None:
        actor = self.tables.pop(table, None)
        if actor is not None:
            actor.post("t_close", None, None)
            self.drop_table(actor.table)

    # ------------------------------------------------------------------ lobby

    def public_state(self) -> dict[str, Any]:
        """The state as the lobby shows it (table names, no ``you``)."""
        state = dict(self.coordinator.state()) if self.coordinator is not None else {}
        state["tables"] = [
            [self.table_name(t), n] for t, n in state.get("tables", []) if isinstance(t, int)
        ]
        state["players"] = [
            [pid, name, self.table_name(t), seat, stack]
            for pid, name, t, seat, stack in state.get("players", [])
        ]
        return state

    def _state_message(self, client: Client) -> m.TournamentState:
        state = self.public_state()
        pid = client.pid
        where = self.where.get(pid) if pid else None
        state["you"] = (
            {"player": pid, "table": self.table_name(where.table), "seat": where.seat}
            if where is not None and pid is not None
            else ({"player": pid} if pid in self.names else None)
        )
        return m.TournamentState(tournament=self.tid, state=state)

    def _changed(self) -> None:
        """Tell the followers, at most every 0.2 s (many decisions come in bursts)."""
        if self._dirty is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._dirty = loop.call_later(0.2, self._broadcast)

    def _broadcast(self) -> None:
        self._dirty = None
        for client in list(self.followers.values()):
            client.deliver(encode(self._state_message(client)))
