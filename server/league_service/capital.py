"""The season capital, kept beside the cash tables of a league's season (issue 26).

fpc cash: « Le joueur ne peut en aucun cas engager une valeur de jetons supérieure à son
capital » and « L'adhérent ayant perdu la totalité de son capital ne pourra plus participer
aux sessions de Cash Game ». The capital is an account with reservations
(:mod:`server.league.capital_account`), kept by a
:class:`~server.league.capital_store.CapitalBook` (a SQLite file, or Redis across processes):

1. a buy-in, rebuy or top-up at a season's table is first **reserved** (:meth:`SeasonCapital.
   admit`: the membership decision, then the store checks the capital and sets the amount
   aside in one transaction or one script); refused there, it never reaches the table;
2. the table handles it, the purchase's ledger line naming its hold;
3. after each command the table handled (:meth:`SeasonCapital.settled`, the actor's
   ``settled`` hook), the hold is **spent** once the ledger has its line or **released** when
   the table refused it, and the member's totals at the table (brought, taken, stack) are
   copied into the account: a cash-out gives the capital back the moment the table writes it.

A crash between two of these steps loses nothing: at the table's restart its holds are
dropped (their requests died with the process) and its totals copied again from the ledger
the table restored (:meth:`SeasonCapital.restored`). A store that fails refuses the purchase
(``internal``); a settlement that fails is logged and made at the next command, the hold
still set aside meanwhile (the capital is never overspent, at worst held a little longer).

Only this module decides about a season's money; the gateway routes to it.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
from collections.abc import Callable
from typing import Any

from protocol import ErrorCode, ProtocolError
from server.cash import Ledger
from server.engine.setup import Game, Structure
from server.league.book import LeagueBook
from server.league.capital_account import Hold, Stint, settle, standing
from server.league.capital_store import CapitalBook, CapitalRefused, CapitalStoreError
from server.league.membership import EntryPath, admit
from server.league.membership import standing as standing_of
from server.league.model import Action, LeagueRefusal, RefusalCode, Season, can
from server.table import commands as tc
from server.table.actor import TableActor

__all__ = ["CAPITAL_REFUSED", "SeasonCapital"]

log = logging.getLogger("brasseur.capital")

CAPITAL_REFUSED = "cash.capital"
"""The stable code of a purchase the capital does not allow (as a table's own refusal)."""

_PURCHASES = (tc.BuyIn, tc.AddChips)


@dataclasses.dataclass(slots=True)
class _Pending:
    season: str
    member: str
    hold: Hold
    in_flight: bool = True
    """Its command is not handled yet (queued before the table)."""


_TABLE_GAMES = {"cash": Game.HOLDEM, "draw": Game.DRAW}
"""A ``create``'s ``game`` at a season's table: ``cash`` deals hold'em, ``draw`` five-card
draw (a cash game at the fpc)."""


def _table_terms(season: Season, game: Game, structure: str) -> dict[str, str]:
    """The game and structure a season's new table deals, as table settings (none for
    hold'em no-limit: such a table's settings are as before draw existed)."""
    if game is not season.game:
        raise ProtocolError(
            RefusalCode.BAD_GAME.value,
            f"this season plays {season.game.value}: its tables deal {season.game.value}",
        )
    try:
        betting = Structure(structure) if structure else season.structure
    except ValueError:
        raise ProtocolError(
            RefusalCode.BAD_BETTING.value, "structure: no_limit or pot_limit"
        ) from None
    out: dict[str, str] = {}
    if game is not Game.HOLDEM:
        out["game"] = game.value
    if betting is not Structure.NO_LIMIT:
        out["structure"] = betting.value
    return out


def _member_of(player: str | None) -> str | None:
    """A member's player id is ``m.<member id>`` (server.gateway.accounts)."""
    return player[2:] if player is not None and player.startswith("m.") else None


class SeasonCapital:
    def __init__(
        self,
        leagues: LeagueBook,
        book: CapitalBook,
        name_of: Callable[[str], str | None] = lambda member: None,
        new_hold: Callable[[], str] = lambda: secrets.token_hex(8),
    ) -> None:
        self.leagues = leagues
        self.book = book
        self.name_of = name_of
        """A member's display name (his account's), for the standings."""
        self._new_hold = new_hold
        self._pending: dict[str, dict[str, _Pending]] = {}
        """Per table, the holds asked there and not ended."""
        self._copied: dict[str, dict[str, Stint]] = {}
        """Per table, each member's totals as last written to the book."""
        self.failures = 0
        """Settlements the book refused (retried at the next command; health shows it)."""

    # ------------------------------------------------------------------ a new table

    def new_table(
        self, member: str | None, season_ref: str, game: str, structure: str = ""
    ) -> dict[str, Any]:
        """The season settings of a new table (``create`` ``season``: ``<league>/<season>``):
        a cash table, created by a director of the league logged in with his account, in a
        capital season, dealing the season's game (``game`` ``cash``: hold'em; ``draw``:
        five-card draw; fpc « Les caves sont spécifiques à chaque jeu », so a season's
        capital is played at its own game's tables only: ``league.bad_game``) with
        ``structure`` (empty: the season's; ``league.bad_betting`` for another value).
        The settings name the game and structure when they are not hold'em no-limit
        (``game``, ``structure``: what the table deals)."""
        if game not in _TABLE_GAMES:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, "a season's tables are cash tables")
        if member is None:
            raise ProtocolError(
                RefusalCode.NOT_MEMBER.value, "log in to create a table of a season"
            )
        league_id, _, season_id = season_ref.partition("/")
        league = self.leagues.league(league_id)
        season = self.leagues.season(season_id)
        if league is None or season is None or season.league != league.id:
            raise ProtocolError(RefusalCode.NOT_FOUND.value, "no such season in this league")
        role = league.role_of(member)
        if role is None or not can(role, Action.CREATE_EVENT):
            raise ProtocolError(
                RefusalCode.FORBIDDEN.value, "the league's directors create its tables"
            )
        start = season.capital()
        if start is None:
            raise ProtocolError(
                RefusalCode.BAD_POINTS.value, "this season counts points, not capital"
            )
        terms = _table_terms(season, _TABLE_GAMES[game], structure)
        return {"league": league.id, "season": season.id, "capital": start} | terms

    # ------------------------------------------------------------------ a purchase

    def admit(self, actor: TableActor, command: tc.Command) -> tc.Command:
        """A command for ``actor``: a purchase at a season's table is let through only for a
        member of the league whose capital allows it, with its amount reserved (the command
        then carries its hold); any other command is unchanged."""
        season = actor.config.extra.get("season")
        start = actor.config.extra.get("capital")
        if not isinstance(season, str) or not isinstance(start, int):
            return command
        if not isinstance(command, _PURCHASES):
            return command
        member = _member_of(command.conn.player)
        league = self.leagues.league(str(actor.config.extra.get("league", "")))
        try:  # the one membership decision (docs/leagues.md, "Who may enter")
            admit(standing_of(league, member), EntryPath.CASH_TABLE, members_only=True)
        except LeagueRefusal as exc:
            raise ProtocolError(exc.code, exc.message) from None
        assert member is not None  # a guest was refused above
        hold = Hold(self._new_hold(), actor.table, command.amount)
        try:
            self.book.reserve(season, member, start, hold)
        except CapitalRefused as exc:
            raise ProtocolError(CAPITAL_REFUSED, exc.message) from None
        except CapitalStoreError as exc:
            log.error("table %s: the capital could not be reserved: %s", actor.table, exc)
            raise ProtocolError(
                ErrorCode.INTERNAL, "your capital could not be checked: retry"
            ) from None
        self._pending.setdefault(actor.table, {})[hold.id] = _Pending(season, member, hold)
        return dataclasses.replace(command, capital=command.amount, hold=hold.id)

    # ------------------------------------------------------------------ the table's answer

    def follow(self, actor: TableActor) -> None:
        """Follow a season's table from now on (before it handles anything)."""
        if isinstance(actor.config.extra.get("season"), str):
            actor.settled = self.settled

    def settled(self, actor: TableActor, command: tc.Command | None) -> None:
        """The table handled ``command`` (None: its timers ran): end the holds it decided,
        copy the totals that moved."""
        season = actor.config.extra.get("season")
        ledger = actor.ledger()
        if not isinstance(season, str) or ledger is None:
            return
        pending = self._pending.get(actor.table, {})
        hold_id = getattr(command, "hold", "")
        if hold_id in pending:
            pending[hold_id].in_flight = False
        self._copy(actor.table, season, ledger, actor.stacks(), actor.asks_seat)

    def restored(self, actor: TableActor) -> None:
        """The table came back from its store: the holds asked there died with the process
        that asked them; its totals are copied again from the ledger it restored."""
        season = actor.config.extra.get("season")
        ledger = actor.ledger()
        if not isinstance(season, str) or ledger is None:
            return
        try:
            dropped = self.book.drop_holds(actor.table)
        except CapitalStoreError as exc:
            self.failures += 1
            log.error("table %s: its capital holds could not be dropped: %s", actor.table, exc)
            return
        if dropped:
            log.info(
                "table %s: %d capital holds of a stopped process dropped", actor.table, len(dropped)
            )
        self._pending.pop(actor.table, None)
        self._copied.pop(actor.table, None)
        self._copy(actor.table, season, ledger, actor.stacks(), lambda player: False, every=True)

    def closed(self, table: str, season: str, ledger: Ledger) -> None:
        """The table closed for good with ``ledger`` (every stack on it cashed out)."""
        self._copy(table, season, ledger, {}, lambda player: False, every=True)
        self._pending.pop(table, None)
        self._copied.pop(table, None)

    def _copy(
        self,
        table: str,
        season: str,
        ledger: Ledger,
        stacks: dict[str, int],
        asks: Callable[[str], bool],
        every: bool = False,
    ) -> None:
        pending = self._pending.get(table, {})
        copied = self._copied.setdefault(table, {})
        players = (
            set(stacks) | {f"m.{m}" for m in copied} | {f"m.{p.member}" for p in pending.values()}
        )
        if every:
            players |= {t.player for t in ledger.totals()}
        moved: dict[str, Stint] = {}
        for player in players:
            member = _member_of(player)
            if member is None:
                continue
            stint = Stint(*ledger.moves(player), stacks.get(player, 0))
            if copied.get(member) != stint:
                moved[member] = stint
        ended = settle(
            [p.hold for p in pending.values()],
            recorded=ledger.recorded,
            waiting=lambda h: pending[h].in_flight or asks(f"m.{pending[h].member}"),
        )
        done = ended.spent + ended.released
        if not moved and not done:
            return
        by_member: dict[str, list[str]] = {}
        for h in done:
            by_member.setdefault(pending[h].member, []).append(h)
        try:
            self.book.settle(season, table, moved, by_member)
        except CapitalStoreError as exc:
            self.failures += 1
            log.error("table %s: the capital could not follow its ledger: %s", table, exc)
            return
        copied.update(moved)
        for h in done:
            del pending[h]

    # ------------------------------------------------------------------ the standings

    def standings(self, season: str, start: int) -> list[dict[str, Any]]:
        """The season's general standings (« donnera le classement général »): each member
        who played, his capital (the chips on the tables counted), best first; ties by
        name."""
        rows: list[dict[str, Any]] = []
        for account in self.book.accounts(season):
            if not account.stints:
                continue
            capital = standing(start, account.stints.values())
            name = self.name_of(account.member) or account.member
            rows.append(
                {"member": account.member, "name": name, "capital": capital, "barred": capital <= 0}
            )
        rows.sort(key=lambda r: (-int(r["capital"]), str(r["name"])))
        return rows
