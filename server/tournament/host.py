"""The live side of a tournament in one server process: its tables and its players' connections.

The host carries out the director's decisions on the :class:`~server.table.actor.TableActor` of
each table it runs (seat, remove, deal, hold and reveal, stacks): it is the live
:class:`~server.tournament.interpret.TableOps` of :func:`~server.tournament.interpret.interpret`,
and every command it sends a table goes through its ``cmd_*`` methods. It reports what the tables
say (ready, all-in hand-for-hand, the :class:`~server.table.report.HandEnded` of a hand) to the
coordinator, and keeps every registered player's connection on his current seat: when the
director moves him (balancing, a broken table, the final table) the connection is re-attached to
the new table and told with ``moved``.

Every process of a Redis tournament runs a host and sees every decision; each host acts on the
tables it runs (``directory``) and on the connections it holds.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from protocol import ErrorCode, ProtocolError, encode
from protocol import messages as m
from server.table import commands as c
from server.table.actor import Client, Store, TableActor
from server.table.clock import Clock
from server.table.config import TableConfig
from server.table.dealer import Dealer
from server.tokens import TokenAuthority

from .config import TournamentConfig
from .console import CONSOLE_OPS, console_report
from .coordinator import Coordinator
from .decisions import (
    ChipRace,
    Deal,
    Eliminated,
    Finished,
    HandEnded,
    Instruction,
    Rebought,
    Refused,
    Registered,
    RemovalReason,
    TableAssignment,
    WaitReason,
)
from .interpret import Announcement, Move, colour_up_note, interpret
from .lobby import lobby_state, you
from .results import results_csv, results_json
from .settings import HostSettings

__all__ = ["COMPACT_LEAVES_OUT", "COMPACT_QUIET", "HostSettings", "TournamentHost"]

log = logging.getLogger("brasseur.tournament")

COMPACT_LEAVES_OUT = frozenset({"players", "registered", "tables", "results", "payouts"})
"""What a follower without the lobby (``follow`` ``lobby`` false) is not sent: the lists that
grow with the field (a player at his table needs the rest: phase, level, clock, ``you``)."""
COMPACT_QUIET = frozenset({"level_left", "late_left", "average", "players_left", "entries"})
"""What changes alone does not send such a follower a new state: the clocks (counted down by
the client between states) and the field's counts; they come with the next change."""


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
        self.compact: dict[str, dict[str, Any] | None] = {}
        """Followers without the lobby's lists (by connection), with what they were last sent
        (the state less ``COMPACT_QUIET``; None: nothing yet)."""
        self.pending: dict[str, tuple[Client, int | None]] = {}
        self.asking: dict[str, tuple[Client, int | None]] = {}
        """Busted players whose rebuy or re-entry waits for the director's answer."""
        self.commentary = settings.spectators == "commentary"
        """The rail of the tables: one hand behind with the finished hands' cards, or live."""
        self.registrations = 0
        self.done = False
        """The tournament is over."""
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

    def register(
        self,
        client: Client,
        nickname: str,
        ref: int | None,
        *,
        player: str | None = None,
        lobby: bool = True,
    ) -> None:
        """Register ``nickname``, under a new random id or the chosen ``player`` id (a league
        member's); once registered he follows the tournament (with the lobby's lists unless
        ``lobby`` is false: :meth:`follow`). The director answers ``registered``, or
        ``tournament.already_registered`` for an id it has already; a ``player`` registered
        already (a satellite's ticket entered him) is answered ``registered`` with his token
        and this connection follows his seat: no second entry."""
        assert self.coordinator is not None
        if player is not None and player in self.names:
            token = self.player_token(player)
            reply = m.Registered(tournament=self.tid, player=player, token=token, ref=ref)
            client.deliver(encode(reply))
            self.follow(client, token, lobby=lobby)
            return
        pid = player if player is not None else secrets.token_urlsafe(9)
        self._lobby(client, lobby)
        self.pending[pid] = (client, ref)
        self.coordinator.submit("register", {"player": pid, "name": nickname})

    def player_token(self, pid: str, name: str = "") -> str:
        return self.auth.issue(
            {"k": "player", "t": self.tid, "p": pid, "n": self.names.get(pid, name)}, 30 * 86400
        )

    def director_token(self) -> str:
        return self.auth.director(self.tid)

    def follow(self, client: Client, token: str | None, *, lobby: bool = True) -> None:
        """Watch the tournament; with a player token, sit at one's seat and follow moves.
        Without ``lobby``, the states leave out the lobby's lists (``COMPACT_LEAVES_OUT``) and
        come only when what is left changed (issue 32: a 2,000-player tournament sent its
        playing bots 3.9 GB of lobby states)."""
        pid: str | None = None
        if token:
            pid = self._take_client(client, token)
        self.followers[client.cid] = client
        self._lobby(client, lobby)
        self._send_state(client)
        if pid is not None:
            self._attach(pid, reason="")

    def _player(self, token: str) -> str:
        """The player a player token speaks for (``bad_token`` if not of this tournament)."""
        claims = self.auth.verify(token, "player")
        if claims.get("t") != self.tid:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "this token is for another tournament")
        return str(claims["p"])

    def _take_client(self, client: Client, token: str) -> str:
        """This connection now speaks for the token's player (his moves follow it)."""
        pid = self._player(token)
        client.pid = pid
        old = self.clients.get(pid)
        self.clients[pid] = client
        if old is not None and old.cid != client.cid:
            self.followers.pop(old.cid, None)
        return pid

    def again(self, client: Client, msg: m.Rebuy | m.Reenter) -> None:
        """A busted player's ``rebuy`` (tda 26: before his table's next hand, same seat) or
        ``reenter`` (a new entry, seated as a late entry, tda 7): the director answers with
        his seat (``moved``, then the table) or a refusal (``error`` ``tournament.*``)."""
        assert self.coordinator is not None
        pid = self._take_client(client, msg.token)
        self.followers[client.cid] = client
        tournaments = getattr(client, "tournaments", None)
        if isinstance(tournaments, set):
            tournaments.add(self.tid)  # told when it goes (gone)
        if pid in self.where:
            raise ProtocolError("tournament.not_allowed", "you still hold a seat")
        self.asking[pid] = (client, msg.id)
        self.coordinator.submit(msg.TYPE, {"player": pid})

    def _lobby(self, client: Client, lobby: bool) -> None:
        if lobby:
            self.compact.pop(client.cid, None)
        elif client.cid not in self.compact:
            self.compact[client.cid] = None  # the last compact state sent: none yet

    def gone(self, client: Client) -> None:
        self.compact.pop(client.cid, None)
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
            self.cmd_attach(actor, client)

    def console(self, client: Client, msg: m.Direct) -> None:
        """A director's command (director token checked)."""
        assert self.coordinator is not None
        claims = self.auth.verify(msg.token, "director")
        if claims.get("t") != self.tid:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "this token is for another tournament")
        if msg.op not in CONSOLE_OPS:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, f"unknown op {msg.op!r}")
        self.consoles[client.cid] = client
        report = console_report(msg, self.names, self.where, self.table_number)
        if report is not None:
            self.coordinator.submit(*report)
        else:
            self._folded(client, msg.table or "")

    def abandon(self, token: str) -> None:
        """The player announces he leaves (cdc 1.9, fpc 4-3, ligue 6.23): chips removed,
        ranked at the announcement."""
        assert self.coordinator is not None
        pid = self._player(token)
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

    def hand_ended(self, table: TableActor, report: HandEnded) -> None:
        number = self.table_number(table.table)
        if self.coordinator is not None and number is not None:
            self.coordinator.hand_ended(report.numbered(number))

    # ------------------------------------------------------------------ director -> tables

    def apply(self, decisions: list[Instruction]) -> None:
        for observe in self.observers:
            observe(decisions)
        for dec in decisions:
            try:
                interpret(dec, self)
            except Exception:
                log.exception("tournament %s: applying %s", self.tid, dec)
        self._changed()

    # TableOps (server.tournament.interpret): the players and the lobby

    def registered(self, dec: Registered) -> None:
        self.names[dec.player_id] = dec.name
        self.registrations += 1
        self.asking.pop(dec.player_id, None)  # a re-entry: "moved" (late entry) follows
        pending = self.pending.pop(dec.player_id, None)
        if pending is not None:
            client, ref = pending
            client.pid = dec.player_id
            self.clients[dec.player_id] = client
            self.followers[client.cid] = client
            token = self.player_token(dec.player_id)
            client.deliver(
                encode(
                    m.Registered(tournament=self.tid, player=dec.player_id, token=token, ref=ref)
                )
            )
        start = self.settings.start_when_registered
        if start and self.registrations == start and self.coordinator is not None:
            self.coordinator.submit("start", {})

    def refused(self, dec: Refused) -> None:
        pending = self.pending.pop(dec.player_id, None)
        if pending is not None:
            registered = getattr(pending[0], "registered", None)
            if isinstance(registered, set):  # refused: this person has no entry (may retry)
                registered.discard(self.tid)
        pending = pending or self.asking.pop(dec.player_id, None)
        if pending is not None:
            client, ref = pending
            text = dec.detail or dec.reason.value.replace("_", " ")
            client.deliver(
                encode(m.Error(code=f"tournament.{dec.reason.value}", message=text, ref=ref))
            )

    def rebought(self, dec: Rebought) -> None:
        self.where[dec.player_id] = _Seat(dec.table_id, dec.seat)
        self.asking.pop(dec.player_id, None)  # "moved" (rebuy) follows

    def eliminated(self, dec: Eliminated) -> None:
        self.where.pop(dec.player_id, None)

    def finished(self, dec: Finished) -> None:
        self.done = True
        results = dec.results
        self.persist(f"tournament:{self.tid}:results.csv", results_csv(results))
        self.persist(f"tournament:{self.tid}:results.json", results_json(results, self.config))
        for table in list(self.tables):
            self.close_table(table, "finished")

    def announce(self, dec: Announcement) -> None:
        pass  # the lobby's state shows it

    def console_refused(self, op: str, text: str) -> None:
        for console in list(self.consoles.values()):
            console.deliver(encode(m.Error(code="tournament.refused", message=f"{op}: {text}")))

    def spectators(self, commentary: bool) -> None:
        self.commentary = commentary
        for actor in self.tables.values():
            self.cmd_rail(actor)

    def name(self, player: str) -> str:
        return self.names.get(player, player)

    # TableOps: seats

    def open_table(self, a: TableAssignment, reason: str, came_from: Mapping[str, int]) -> None:
        owner = self.directory.setdefault(a.table_id, self.process)
        for seat, pid in a.seats.items():
            self.where[pid] = _Seat(a.table_id, seat)
        if owner == self.process:
            config = self.table_config(a.table_id, a.max_seats)
            actor = TableActor(config, self.clock, self.dealer(), store=self.store)
            actor.direct(self)
            self.tables[a.table_id] = actor
            self.cmd_rail(actor)
            for seat, pid in a.seats.items():
                self.cmd_seat(actor, seat, pid, self.name(pid), a.stacks[pid], False)
            self.add_table(actor)
            actor.start()
        for pid in a.seats.values():
            self._attach(pid, reason, came_from.get(pid))

    def close_table(self, table: int, reason: str) -> None:
        actor = self.tables.pop(table, None)
        if actor is not None:
            self.cmd_close(actor)
            self.drop_table(actor.table)

    def seat(
        self, table: int, seat: int, player: str, stack: int, waits_for_button: bool, reason: str
    ) -> None:
        self._seat(table, seat, player, stack, waits_for_button)
        self._attach(player, reason)

    def move(self, move: Move, reason: str) -> None:
        self.unseat(move.from_table, move.from_seat, move.player_id, "moved")
        self._seat(move.to_table, move.to_seat, move.player_id, move.stack, move.waits_for_button)
        self._attach(move.player_id, reason, move.from_table)

    def unseat(self, table: int, seat: int, player: str, reason: str) -> None:
        actor = self.tables.get(table)
        if actor is not None:
            self.cmd_remove(actor, seat, player, reason[:16])

    def remove(self, table: int, seat: int, player: str, reason: RemovalReason) -> None:
        self.unseat(table, seat, player, reason.value)
        self.where.pop(player, None)

    def _seat(self, table: int, seat: int, pid: str, stack: int, waits: bool) -> None:
        self.where[pid] = _Seat(table, seat)
        actor = self.tables.get(table)
        if actor is not None:
            self.cmd_seat(actor, seat, pid, self.name(pid), stack, waits)

    # TableOps: hands, chips and words

    def deal(self, deal: Deal) -> None:
        actor = self.tables.get(deal.table_id)
        if actor is not None:
            self.cmd_deal(actor, deal)

    def wait(self, table: int, reason: WaitReason) -> None:
        actor = self.tables.get(table)
        if actor is not None:
            self.cmd_wait(actor, reason)

    def hold(self, table: int) -> None:
        pass  # the table holds the all-in hands until told to reveal them

    def reveal(self, table: int) -> None:
        actor = self.tables.get(table)
        if actor is not None:
            self.cmd_reveal(actor)

    def colour_up(self, race: ChipRace) -> None:
        actor = self.tables.get(race.table_id)
        if actor is None:
            return
        for line in race.lines:
            note = colour_up_note(race, line, self.name(line.player_id))
            self.cmd_stack(actor, line.seat, line.player_id, line.stack_after, note, relative=False)

    def set_stack(self, table: int, seat: int, player: str, stack: int, note: str) -> None:
        actor = self.tables.get(table)
        if actor is not None:
            self.cmd_stack(actor, seat, player, stack, note, relative=False)

    def add_chips(self, player: str, chips: int, note: str) -> None:
        where = self.where.get(player)
        actor = self.tables.get(where.table) if where is not None and chips else None
        if where is not None and actor is not None:
            self.cmd_stack(actor, where.seat, player, chips, note, relative=True)

    def note(self, table: int, text: str) -> None:
        actor = self.tables.get(table)
        if actor is not None:
            self.cmd_note(actor, text)

    def penalty(self, table: int, player: str, hands: int) -> None:
        actor = self.tables.get(table)
        if actor is not None:
            self.cmd_penalty(actor, player, hands)

    # ------------------------------------------------------------------ table commands
    # The only place that sends commands to the table actors (server.table.commands).

    def cmd_seat(
        self, actor: TableActor, seat: int, pid: str, name: str, stack: int, waits: bool
    ) -> None:
        actor.post(c.SeatPlayer(seat=seat, player=pid, name=name, stack=stack, waits=waits))

    def cmd_remove(self, actor: TableActor, seat: int, pid: str, status: str) -> None:
        actor.post(c.RemovePlayer(seat=seat, player=pid, status=status))

    def cmd_stack(
        self, actor: TableActor, seat: int, pid: str, amount: int, note: str, *, relative: bool
    ) -> None:
        actor.post(c.SetStack(seat=seat, player=pid, amount=amount, note=note, relative=relative))

    def cmd_deal(self, actor: TableActor, deal: Deal) -> None:
        actor.post(
            c.NextDeal(
                hand_no=deal.hand_no,
                blinds=deal.blinds,
                positions=deal.positions,
                hand_for_hand=deal.hand_for_hand,
                level=deal.level_number,
            )
        )

    def cmd_wait(self, actor: TableActor, reason: WaitReason) -> None:
        actor.post(c.HoldDeal(reason=reason.value))

    def cmd_reveal(self, actor: TableActor) -> None:
        actor.post(c.Reveal())

    def cmd_note(self, actor: TableActor, text: str) -> None:
        actor.post(c.TableNote(text=text))

    def cmd_penalty(self, actor: TableActor, pid: str, hands: int) -> None:
        actor.post(c.Penalty(player=pid, hands=hands))

    def cmd_close(self, actor: TableActor) -> None:
        actor.post(c.CloseTable())

    def cmd_attach(self, actor: TableActor, client: Client) -> None:
        actor.post(c.Attach(conn=TableActor.conn(client)), client)

    def cmd_rail(self, actor: TableActor) -> None:
        actor.post(c.SpectatorMode(delayed=self.commentary))

    # ------------------------------------------------------------------ tables

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
            # the hand records say which tournament a hand belongs to (hand histories)
            extra={
                "tournament": self.tid,
                "tournament_name": self.config.name,
                "buy_in": self.config.buy_in,
            },
        )

    def reattach(self, table: int) -> None:
        """Put the connections held here of the players seated at ``table`` back on their
        seats, or send them to the process now running it (the table was taken over)."""
        for pid, where in list(self.where.items()):
            if where.table == table and pid in self.clients:
                self._attach(pid, "table recovered")

    def adopt(self, table: int, actor: TableActor) -> None:
        """Run a table recovered from the shared store (another process died)."""
        actor.direct(self)
        self.tables[table] = actor
        self.directory[table] = self.process
        self.cmd_rail(actor)
        self.add_table(actor)
        actor.start()

    # ------------------------------------------------------------------ lobby

    def public_state(self, raw: dict[str, Any] | None = None) -> dict[str, Any]:
        """The state as the lobby shows it (table names, no ``you``)."""
        if raw is None:
            raw = self.coordinator.state() if self.coordinator is not None else {}
        return lobby_state(raw, self.table_name, "commentary" if self.commentary else "live")

    def _state_message(
        self, client: Client, raw: dict[str, Any] | None = None
    ) -> m.TournamentState:
        if raw is None:
            raw = self.coordinator.state() if self.coordinator is not None else {}
        state = self.public_state(raw)
        pid = client.pid
        where = self.where.get(pid) if pid else None
        seat = None if where is None else (self.table_name(where.table), where.seat)
        state["you"] = you(raw, pid, pid in self.names, seat)
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
        raw = self.coordinator.state() if self.coordinator is not None else {}
        for client in list(self.followers.values()):
            self._send_state(client, raw)

    def _send_state(self, client: Client, raw: dict[str, Any] | None = None) -> None:
        """The state to one follower: whole, or compact (and only when it changed)."""
        message = self._state_message(client, raw)
        if client.cid not in self.compact:
            client.deliver(encode(message))
            return
        last = self.compact[client.cid]
        state = {k: v for k, v in message.state.items() if k not in COMPACT_LEAVES_OUT}
        key = {k: v for k, v in state.items() if k not in COMPACT_QUIET}
        if key != last:
            self.compact[client.cid] = key
            client.deliver(encode(m.TournamentState(tournament=self.tid, state=state)))
