"""The live side of a tournament in one server process: its players' desk and its tables.

:class:`TournamentHost` carries out the director's decisions (it is the live
:class:`~server.tournament.interpret.TableOps` of :func:`~server.tournament.interpret.interpret`)
with its two parts, each owning its state:

* ``desk``, a :class:`~server.tournament.desk.PlayerDesk`: registration, tokens, where each
  player sits, the players' connections (kept on their seats: ``moved``), the followers and the
  director's consoles;
* ``ops``, a :class:`~server.tournament.operations.TableOperations`: the tables this process
  runs, which process runs each, the rail, and every command sent to a table.

It reports what its tables say (ready, all-in hand-for-hand, the
:class:`~server.table.report.HandEnded` of a hand) to the coordinator, and writes the results
when the tournament is over. The players' requests (the gateway's, the league service's) are
the desk's, reached through the host's public methods.

Every process of a Redis tournament runs a host and sees every decision; each host acts on the
tables it runs (``ops.directory``) and on the connections it holds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from protocol import messages as m
from server.table.actor import Client, Store, TableActor
from server.table.clock import Clock
from server.table.dealer import Dealer
from server.tokens import TokenAuthority

from .config import TournamentConfig
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
from .desk import COMPACT_LEAVES_OUT, COMPACT_QUIET, PlayerDesk
from .interpret import Announcement, Move, interpret
from .operations import TableOperations
from .results import results_csv, results_json
from .settings import HostSettings

__all__ = ["COMPACT_LEAVES_OUT", "COMPACT_QUIET", "HostSettings", "TournamentHost"]

log = logging.getLogger("brasseur.tournament")


class TournamentHost:
    """The live side of tournament ``tid`` in this process (see the module doc)."""

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
        self.persist = persist
        self.url = url
        self.ops = TableOperations(
            tid,
            config,
            settings,
            clock=clock,
            dealer=dealer,
            store=store,
            directed=self,
            add_table=add_table,
            drop_table=drop_table,
            process=process,
        )
        self.desk = PlayerDesk(
            tid, auth=auth, tables=self.ops, start_when_registered=settings.start_when_registered
        )
        self._coordinator: Coordinator | None = None
        self.done = False
        """The tournament is over."""
        self.observers: list[Callable[[list[Any]], None]] = []
        """Called with every batch of decisions before it is applied (tests, audit logs)."""

    @property
    def coordinator(self) -> Coordinator | None:
        """Where the reports go (set once the tournament is wired); the desk's too."""
        return self._coordinator

    @coordinator.setter
    def coordinator(self, coordinator: Coordinator | None) -> None:
        self._coordinator = coordinator
        self.desk.coordinator = coordinator

    # ------------------------------------------------------------------ the desk's, for callers

    @property
    def names(self) -> dict[str, str]:
        """Registered player -> name."""
        return self.desk.names

    @property
    def pending(self) -> dict[str, tuple[Client, int | None]]:
        """Registrations waiting for the director's answer."""
        return self.desk.pending

    @property
    def registrations(self) -> int:
        return self.desk.registrations

    def table_name(self, table: int) -> str:
        return self.ops.table_name(table)

    def register(
        self,
        client: Client,
        nickname: str,
        ref: int | None,
        *,
        player: str | None = None,
        lobby: bool = True,
    ) -> None:
        """:meth:`PlayerDesk.register <server.tournament.desk.PlayerDesk.register>`."""
        self.desk.register(client, nickname, ref, player=player, lobby=lobby)

    def player_token(self, pid: str, name: str = "") -> str:
        return self.desk.player_token(pid, name)

    def director_token(self) -> str:
        return self.desk.director_token()

    def follow(self, client: Client, token: str | None, *, lobby: bool = True) -> None:
        """:meth:`PlayerDesk.follow <server.tournament.desk.PlayerDesk.follow>`."""
        self.desk.follow(client, token, lobby=lobby)

    def again(self, client: Client, msg: m.Rebuy | m.Reenter) -> None:
        """:meth:`PlayerDesk.again <server.tournament.desk.PlayerDesk.again>`."""
        self.desk.again(client, msg)

    def gone(self, client: Client) -> None:
        self.desk.gone(client)

    def console(self, client: Client, msg: m.Direct) -> None:
        """:meth:`PlayerDesk.console <server.tournament.desk.PlayerDesk.console>`."""
        self.desk.console(client, msg)

    def abandon(self, token: str) -> None:
        """:meth:`PlayerDesk.abandon <server.tournament.desk.PlayerDesk.abandon>`."""
        self.desk.abandon(token)

    def call_director(self, client: Client, table: str, hand: int | None, text: str) -> None:
        """:meth:`PlayerDesk.call_director <server.tournament.desk.PlayerDesk.call_director>`."""
        self.desk.call_director(client, table, hand, text)

    def public_state(self, raw: dict[str, Any] | None = None) -> dict[str, Any]:
        """The state as the lobby shows it (table names, no ``you``)."""
        return self.desk.public_state(raw)

    # ------------------------------------------------------------------ tables -> director
    # server.table.actor.Directed: every table run here reports to the host

    def ready(self, table: TableActor) -> None:
        number = self.ops.table_number(table.table)
        if self.coordinator is not None and number is not None:
            self.coordinator.submit("ready", {"table": number})

    def allin(self, table: TableActor) -> None:
        number = self.ops.table_number(table.table)
        if self.coordinator is not None and number is not None:
            self.coordinator.submit("allin", {"table": number})

    def hand_ended(self, table: TableActor, report: HandEnded) -> None:
        number = self.ops.table_number(table.table)
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
        self.desk.changed()

    # TableOps (server.tournament.interpret): the players and the lobby

    def registered(self, dec: Registered) -> None:
        self.desk.registered(dec)

    def refused(self, dec: Refused) -> None:
        self.desk.refused(dec)

    def rebought(self, dec: Rebought) -> None:
        self.desk.rebought(dec)

    def eliminated(self, dec: Eliminated) -> None:
        self.desk.eliminated(dec)

    def finished(self, dec: Finished) -> None:
        self.done = True
        results = dec.results
        self.persist(f"tournament:{self.tid}:results.csv", results_csv(results))
        self.persist(f"tournament:{self.tid}:results.json", results_json(results, self.config))
        self.ops.close_all("finished")

    def announce(self, dec: Announcement) -> None:
        pass  # the lobby's state shows it

    def console_refused(self, op: str, text: str) -> None:
        self.desk.console_refused(op, text)

    def spectators(self, commentary: bool) -> None:
        self.ops.spectators(commentary)

    def name(self, player: str) -> str:
        return self.desk.name(player)

    # TableOps: seats

    def open_table(self, a: TableAssignment, reason: str, came_from: Mapping[str, int]) -> None:
        for seat, pid in a.seats.items():
            self.desk.sit(pid, a.table_id, seat)
        self.ops.open_table(a, self.desk.name)
        for pid in a.seats.values():
            self.desk.attach(pid, reason, came_from.get(pid))

    def close_table(self, table: int, reason: str) -> None:
        self.ops.close_table(table, reason)

    def seat(
        self, table: int, seat: int, player: str, stack: int, waits_for_button: bool, reason: str
    ) -> None:
        self._seat(table, seat, player, stack, waits_for_button)
        self.desk.attach(player, reason)

    def move(self, move: Move, reason: str) -> None:
        self.ops.unseat(move.from_table, move.from_seat, move.player_id, "moved")
        self._seat(move.to_table, move.to_seat, move.player_id, move.stack, move.waits_for_button)
        self.desk.attach(move.player_id, reason, move.from_table)

    def unseat(self, table: int, seat: int, player: str, reason: str) -> None:
        self.ops.unseat(table, seat, player, reason)

    def remove(self, table: int, seat: int, player: str, reason: RemovalReason) -> None:
        self.ops.unseat(table, seat, player, reason.value)
        self.desk.stand(player)

    def _seat(self, table: int, seat: int, pid: str, stack: int, waits: bool) -> None:
        self.desk.sit(pid, table, seat)
        self.ops.seat(table, seat, pid, self.desk.name(pid), stack, waits)

    # TableOps: hands, chips and words

    def deal(self, deal: Deal) -> None:
        self.ops.deal(deal)

    def wait(self, table: int, reason: WaitReason) -> None:
        self.ops.wait(table, reason)

    def hold(self, table: int) -> None:
        pass  # the table holds the all-in hands until told to reveal them

    def reveal(self, table: int) -> None:
        self.ops.reveal(table)

    def colour_up(self, race: ChipRace) -> None:
        self.ops.colour_up(race, self.desk.name)

    def set_stack(self, table: int, seat: int, player: str, stack: int, note: str) -> None:
        self.ops.set_stack(table, seat, player, stack, note)

    def add_chips(self, player: str, chips: int, note: str) -> None:
        where = self.desk.seat_of(player)
        if where is not None:
            self.ops.add_chips(where[0], where[1], player, chips, note)

    def note(self, table: int, text: str) -> None:
        self.ops.note(table, text)

    def penalty(self, table: int, player: str, hands: int) -> None:
        self.ops.penalty(table, player, hands)

    # ------------------------------------------------------------------ takeovers

    def reattach(self, table: int) -> None:
        """:meth:`PlayerDesk.reattach <server.tournament.desk.PlayerDesk.reattach>`."""
        self.desk.reattach(table)
