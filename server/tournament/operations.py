"""The tables one process runs for a tournament, and the only place that sends them commands.

:class:`TableOperations` owns the :class:`~server.table.actor.TableActor` of each table this
process runs (``tables``), the directory of which process runs each table of the tournament
(``directory``, with the live processes' ``urls``), and the rail's mode (``commentary``).
Every command a tournament sends a table goes through its ``cmd_*`` methods
(server.table.commands). It knows no player's connection: the
:class:`~server.tournament.desk.PlayerDesk` puts connections on tables through :meth:`attach`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.table import commands as c
from server.table.actor import Client, Directed, Store, TableActor
from server.table.clock import Clock
from server.table.config import TableConfig
from server.table.dealer import Dealer

from .config import TournamentConfig
from .decisions import ChipRace, Deal, TableAssignment, WaitReason
from .interpret import colour_up_note
from .settings import HostSettings

__all__ = ["TableOperations"]


class TableOperations:
    """The tables of tournament ``tid`` run by process ``process`` (see the module doc).
    Table numbers are the director's; a table another process runs is not in ``tables`` and
    every command for it is dropped here (that process carries it out)."""

    def __init__(
        self,
        tid: str,
        config: TournamentConfig,
        settings: HostSettings,
        *,
        clock: Clock,
        dealer: Callable[[], Dealer],
        store: Store | None,
        directed: Directed,
        add_table: Callable[[TableActor], None],
        drop_table: Callable[[str], None],
        process: str,
    ) -> None:
        self.tid = tid
        self.config = config
        self.settings = settings
        self.clock = clock
        self.dealer = dealer
        self.store = store
        """Where the tables opened here keep their log (a Redis tournament's shared store)."""
        self.directed = directed
        """Told by every table run here when it is ready, all-in hand-for-hand, done with a
        hand."""
        self.add_table = add_table
        self.drop_table = drop_table
        self.process = process
        self.tables: dict[int, TableActor] = {}
        self.directory: dict[int, str] = {}
        """Table -> process running it (every table of a local tournament is ours)."""
        self.urls: dict[str, str] = {}
        """Process -> its websocket url (the live processes of a Redis tournament)."""
        self.commentary = settings.spectators == "commentary"
        """The rail of the tables: one hand behind with the finished hands' cards, or live."""

    # ------------------------------------------------------------------ names

    def table_name(self, table: int) -> str:
        return f"{self.tid}-{table}"

    def table_number(self, name: str) -> int | None:
        prefix = f"{self.tid}-"
        if name.startswith(prefix) and name[len(prefix) :].isdigit():
            return int(name[len(prefix) :])
        return None

    # ------------------------------------------------------------------ for the players' desk

    def url_of(self, table: int) -> str:
        """The websocket url of the process running ``table``: empty if it runs here (or
        that process's url is not known)."""
        owner = self.directory.get(table, self.process)
        return "" if owner == self.process else self.urls.get(owner, "")

    def attach(self, table: int, client: Client) -> None:
        """Put ``client`` on ``table`` if it runs here."""
        actor = self.tables.get(table)
        if actor is not None:
            self.cmd_attach(actor, client)

    def folded_hands(self, table: int) -> list[Any] | None:
        """cdc 10.6: every hole card of the table's last hands (its private log); None for a
        table not run here."""
        actor = self.tables.get(table)
        return None if actor is None else actor.private_holes[-20:]

    def rail(self) -> str:
        """The rail's mode as the tables run here have it (server.tournament.lobby)."""
        return "commentary" if self.commentary else "live"

    # ------------------------------------------------------------------ opening and closing

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

    def build(self, table: int, max_seats: int, store: Store | None) -> TableActor:
        """A new actor for ``table``, reporting to ``directed``; not started, not run here
        until :meth:`adopt` (or :meth:`open_table`)."""
        config = self.table_config(table, max_seats)
        actor = TableActor(config, self.clock, self.dealer(), store=store)
        actor.direct(self.directed)
        return actor

    def open_table(self, a: TableAssignment, name: Callable[[str], str]) -> None:
        """Open a table with its players (``name``: a player's name), if it is ours."""
        owner = self.directory.setdefault(a.table_id, self.process)
        if owner != self.process:
            return
        actor = self.build(a.table_id, a.max_seats, self.store)
        self.tables[a.table_id] = actor
        self.cmd_rail(actor)
        for seat, pid in a.seats.items():
            self.cmd_seat(actor, seat, pid, name(pid), a.stacks[pid], False)
        self.add_table(actor)
        actor.start()

    def adopt(self, table: int, actor: TableActor) -> None:
        """Run a table recovered from the shared store (another process died)."""
        actor.direct(self.directed)
        self.tables[table] = actor
        self.directory[table] = self.process
        self.cmd_rail(actor)
        self.add_table(actor)
        actor.start()

    def close_table(self, table: int, reason: str) -> None:
        actor = self.tables.pop(table, None)
        if actor is not None:
            self.cmd_close(actor)
            self.drop_table(actor.table)

    def close_all(self, reason: str) -> None:
        for table in list(self.tables):
            self.close_table(table, reason)

    # ------------------------------------------------------------------ the director's decisions

    def spectators(self, commentary: bool) -> None:
        """The director's choice for the rail of every table (and of the tables to come)."""
        self.commentary = commentary
        for actor in self.tables.values():
            self.cmd_rail(actor)

    def seat(self, table: int, seat: int, player: str, name: str, stack: int, waits: bool) -> None:
        actor = self.tables.get(table)
        if actor is not None:
            self.cmd_seat(actor, seat, player, name, stack, waits)

    def unseat(self, table: int, seat: int, player: str, reason: str) -> None:
        actor = self.tables.get(table)
        if actor is not None:
            self.cmd_remove(actor, seat, player, reason[:16])

    def deal(self, deal: Deal) -> None:
        actor = self.tables.get(deal.table_id)
        if actor is not None:
            self.cmd_deal(actor, deal)

    def wait(self, table: int, reason: WaitReason) -> None:
        actor = self.tables.get(table)
        if actor is not None:
            self.cmd_wait(actor, reason)

    def reveal(self, table: int) -> None:
        actor = self.tables.get(table)
        if actor is not None:
            self.cmd_reveal(actor)

    def colour_up(self, race: ChipRace, name: Callable[[str], str]) -> None:
        actor = self.tables.get(race.table_id)
        if actor is None:
            return
        for line in race.lines:
            note = colour_up_note(race, line, name(line.player_id))
            self.cmd_stack(actor, line.seat, line.player_id, line.stack_after, note, relative=False)

    def set_stack(self, table: int, seat: int, player: str, stack: int, note: str) -> None:
        actor = self.tables.get(table)
        if actor is not None:
            self.cmd_stack(actor, seat, player, stack, note, relative=False)

    def add_chips(self, table: int, seat: int, player: str, chips: int, note: str) -> None:
        """``chips`` more (or fewer) for the player at ``seat``; none: nothing sent."""
        actor = self.tables.get(table) if chips else None
        if actor is not None:
            self.cmd_stack(actor, seat, player, chips, note, relative=True)

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
