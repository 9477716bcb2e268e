"""The players' desk of a tournament in one server process: its people and their connections.

:class:`PlayerDesk` owns who registered (``names``, ``registrations``) and who waits for the
director's answer (``pending`` registrations, ``asking`` rebuys and re-entries), the tokens it
issues and checks, where each player sits (from the decisions), the connection that speaks for
each player (``clients``), the tournament's followers (players and spectators, with what the
compact ones were last sent), the director's consoles and the players who showed up.

It keeps every registered player's connection on his current seat: when the director moves him
(balancing, a broken table, the final table) the connection is re-attached to the new table
(:meth:`attach`) and told with ``moved``; it tells the followers the tournament's state, at most
every 0.2 s (:meth:`changed`). It reaches the tables only through :class:`Tables`.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any, Protocol

from protocol import ErrorCode, ProtocolError, encode
from protocol import messages as m
from server.table.actor import Client
from server.tokens import TokenAuthority

from .console import CONSOLE_OPS, console_report
from .coordinator import Coordinator
from .decisions import Eliminated, Rebought, Refused, Registered
from .lobby import lobby_state, you

__all__ = ["COMPACT_LEAVES_OUT", "COMPACT_QUIET", "PlayerDesk", "Tables"]

COMPACT_LEAVES_OUT = frozenset({"players", "registered", "tables", "results", "payouts"})
"""What a follower without the lobby (``follow`` ``lobby`` false) is not sent: the lists that
grow with the field (a player at his table needs the rest: phase, level, clock, ``you``)."""
COMPACT_QUIET = frozenset({"level_left", "late_left", "average", "players_left", "entries"})
"""What changes alone does not send such a follower a new state: the clocks (counted down by
the client between states) and the field's counts; they come with the next change."""


class Tables(Protocol):
    """What the desk needs of the tables (server.tournament.operations.TableOperations)."""

    def table_name(self, table: int) -> str: ...

    def table_number(self, name: str) -> int | None:
        """The director's number of a table name of this tournament, None for another name."""
        ...

    def url_of(self, table: int) -> str:
        """The url of the process running ``table``, empty if this one runs it."""
        ...

    def attach(self, table: int, client: Client) -> None:
        """Put ``client`` on ``table`` if it runs here."""
        ...

    def folded_hands(self, table: int) -> list[Any] | None:
        """The hole cards of the table's last hands; None: not a table run here."""
        ...

    def rail(self) -> str:
        """The rail's mode (server.tournament.lobby.RAIL_MODES)."""
        ...


class _Seat:
    """The desk's view of where a player sits (from the decisions)."""

    __slots__ = ("seat", "table")

    def __init__(self, table: int, seat: int) -> None:
        self.table = table
        self.seat = seat


class PlayerDesk:
    """The people of tournament ``tid`` in this process (see the module doc). ``coordinator``
    is set once the tournament is wired; every request that reaches the director needs it."""

    def __init__(
        self, tid: str, *, auth: TokenAuthority, tables: Tables, start_when_registered: int
    ) -> None:
        self.tid = tid
        self.auth = auth
        self.tables = tables
        self.start_when_registered = start_when_registered
        """Start by itself once this many players registered (0: the director starts it)."""
        self.coordinator: Coordinator | None = None
        self.names: dict[str, str] = {}
        self.registrations = 0
        self.where: dict[str, _Seat] = {}
        self.clients: dict[str, Client] = {}
        self.followers: dict[str, Client] = {}
        self.compact: dict[str, dict[str, Any] | None] = {}
        """Followers without the lobby's lists (by connection), with what they were last sent
        (the state less ``COMPACT_QUIET``; None: nothing yet)."""
        self.pending: dict[str, tuple[Client, int | None]] = {}
        self.asking: dict[str, tuple[Client, int | None]] = {}
        """Busted players whose rebuy or re-entry waits for the director's answer."""
        self.present: set[str] = set()
        self.consoles: dict[str, Client] = {}
        """Connections that sent a valid director's command (told of refused ones)."""
        self._dirty: asyncio.TimerHandle | None = None

    # ------------------------------------------------------------------ tokens

    def player_token(self, pid: str, name: str = "") -> str:
        return self.auth.issue(
            {"k": "player", "t": self.tid, "p": pid, "n": self.names.get(pid, name)}, 30 * 86400
        )

    def director_token(self) -> str:
        return self.auth.director(self.tid)

    def _player(self, token: str) -> str:
        """The player a player token speaks for (``bad_token`` if not of this tournament)."""
        claims = self.auth.verify(token, "player")
        if claims.get("t") != self.tid:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "this token is for another tournament")
        return str(claims["p"])

    # ------------------------------------------------------------------ players' requests

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
            self.attach(pid, reason="")

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
        """The connection closed: it follows nothing any more."""
        self.compact.pop(client.cid, None)
        self.followers.pop(client.cid, None)
        self.consoles.pop(client.cid, None)
        if client.pid is not None and self.clients.get(client.pid) is client:
            del self.clients[client.pid]

    def console(self, client: Client, msg: m.Direct) -> None:
        """A director's command (director token checked)."""
        assert self.coordinator is not None
        claims = self.auth.verify(msg.token, "director")
        if claims.get("t") != self.tid:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "this token is for another tournament")
        if msg.op not in CONSOLE_OPS:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, f"unknown op {msg.op!r}")
        self.consoles[client.cid] = client
        report = console_report(msg, self.names, self.where, self.tables.table_number)
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
        if pid is None or where is None or self.tables.table_name(where.table) != table:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you have no seat at this table")
        self.coordinator.submit("call", {"player": pid, "hand": hand, "text": text})

    def _folded(self, client: Client, table: str) -> None:
        """cdc 10.6: the director may look at folded hands (collusion check): every hole card
        of the table's last hands, from the table's private log."""
        number = self.tables.table_number(table)
        hands = self.tables.folded_hands(number) if number is not None else None
        if hands is None:
            raise ProtocolError(ErrorCode.UNKNOWN_TABLE, "no such table here")
        client.deliver(
            encode(
                m.TournamentState(
                    tournament=self.tid,
                    state={"folded": {"table": table, "hands": hands}},
                )
            )
        )

    # ------------------------------------------------------------------ seats

    def attach(self, pid: str, reason: str, from_table: int | None = None) -> None:
        """Put the player's connection on his current seat, telling him (``moved``)."""
        client = self.clients.get(pid)
        where = self.where.get(pid)
        if client is None or where is None:
            return
        if pid not in self.present and self.coordinator is not None:
            self.present.add(pid)  # he showed up: not a no-show (fpc 2-2)
            self.coordinator.submit("present", {"player": pid})
        name = self.tables.table_name
        tables = getattr(client, "tables", None)
        if isinstance(tables, set):
            if from_table is not None:
                tables.discard(name(from_table))
            tables.add(name(where.table))
        client.deliver(
            encode(
                m.Moved(
                    tournament=self.tid,
                    table=name(where.table),
                    seat=where.seat,
                    from_table="" if from_table is None else name(from_table),
                    reason=reason,
                    url=self.tables.url_of(where.table),
                )
            )
        )
        self.tables.attach(where.table, client)

    def reattach(self, table: int) -> None:
        """Put the connections held here of the players seated at ``table`` back on their
        seats, or send them to the process now running it (the table was taken over)."""
        for pid, where in list(self.where.items()):
            if where.table == table and pid in self.clients:
                self.attach(pid, "table recovered")

    def sit(self, pid: str, table: int, seat: int) -> None:
        """The director seated the player there (he is told by :meth:`attach`)."""
        self.where[pid] = _Seat(table, seat)

    def stand(self, pid: str) -> None:
        """The player holds no seat any more."""
        self.where.pop(pid, None)

    def seat_of(self, pid: str) -> tuple[int, int] | None:
        """The player's table and seat, None if he holds none."""
        where = self.where.get(pid)
        return None if where is None else (where.table, where.seat)

    def name(self, player: str) -> str:
        return self.names.get(player, player)

    # ------------------------------------------------------------------ the director's answers

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
        start = self.start_when_registered
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
        self.sit(dec.player_id, dec.table_id, dec.seat)
        self.asking.pop(dec.player_id, None)  # "moved" (rebuy) follows

    def eliminated(self, dec: Eliminated) -> None:
        self.stand(dec.player_id)

    def console_refused(self, op: str, text: str) -> None:
        for console in list(self.consoles.values()):
            console.deliver(encode(m.Error(code="tournament.refused", message=f"{op}: {text}")))

    # ------------------------------------------------------------------ the followers

    def public_state(self, raw: dict[str, Any] | None = None) -> dict[str, Any]:
        """The state as the lobby shows it (table names, no ``you``)."""
        if raw is None:
            raw = self.coordinator.state() if self.coordinator is not None else {}
        return lobby_state(raw, self.tables.table_name, self.tables.rail())

    def _state_message(
        self, client: Client, raw: dict[str, Any] | None = None
    ) -> m.TournamentState:
        if raw is None:
            raw = self.coordinator.state() if self.coordinator is not None else {}
        state = self.public_state(raw)
        pid = client.pid
        where = self.where.get(pid) if pid else None
        seat = None if where is None else (self.tables.table_name(where.table), where.seat)
        state["you"] = you(raw, pid, pid in self.names, seat)
        return m.TournamentState(tournament=self.tid, state=state)

    def changed(self) -> None:
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
