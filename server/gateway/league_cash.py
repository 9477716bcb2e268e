"""A league's cash season: the fpc capital that follows a member across tables (issue 14's
« capital de départ » kept over a season, on issue 15's leagues and accounts).

fpc cash: « Chaque adhérent se voit attribuer un capital de départ de 40 000 jetons lors de
son adhésion, qu'il lui appartient de gérer tout au long de la saison. Ses gains et ses pertes
feront évoluer son capital et ainsi donnera le classement général. L'adhérent ayant perdu la
totalité de son capital ne pourra plus participer aux sessions de Cash Game. » and « Le joueur
ne peut en aucun cas engager une valeur de jetons supérieure à son capital. »

A season whose points are ``capital`` (or ``capital:<N>``) is a cash season. Its director
creates cash tables in it (``create`` with ``season``: ``<league>/<season>``); they seat
members only. The capital is never a second set of books that could disagree with the
tables: it is computed from the season's ledgers (the live tables', and those kept when a
table is dropped), so a crash cannot leave it half-written:

- what a member may still bring = start + everything he took out of the season's tables −
  everything he brought to them (the chips on a table count as brought, so a member cannot
  bring the same capital to two tables at once);
- his standing = that + the chips he has on the tables now.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Any

from protocol import ErrorCode, ProtocolError
from protocol import messages as m
from server.cash import Ledger
from server.cash.ledger import IN, OUT
from server.gateway.cash_room import archived_ledger
from server.gateway.connection import Connection
from server.league.model import Action, RefusalCode, can, capital_start
from server.table import commands as tc
from server.table.actor import TableActor
from server.table.cash import CashState

if TYPE_CHECKING:
    from server.gateway.app import Gateway

__all__ = [
    "capital_standings",
    "record_season_table",
    "season_for_new_table",
    "with_capital",
]


def season_for_new_table(
    g: Gateway, conn: Connection, message: m.CreateTable
) -> dict[str, Any] | None:
    """The season settings of a new table (``create`` ``season``): a cash table, created by
    a director of the league logged in with his account, in a capital season. None when no
    season is named."""
    if not message.season:
        return None
    league_id, _, season_id = message.season.partition("/")
    if message.game != "cash":
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "a season's tables are cash tables")
    if conn.member is None:
        raise ProtocolError(RefusalCode.NOT_MEMBER.value, "log in to create a table of a season")
    store = g.leagues.store
    league = store.league(league_id)
    season = store.season(season_id)
    if league is None or season is None or season.league != league.id:
        raise ProtocolError(RefusalCode.NOT_FOUND.value, "no such season in this league")
    role = league.role_of(conn.member)
    if role is None or not can(role, Action.CREATE_EVENT):
        raise ProtocolError(RefusalCode.FORBIDDEN.value, "the league's directors create its tables")
    start = capital_start(season.points)
    if start is None:
        raise ProtocolError(RefusalCode.BAD_POINTS.value, "this season counts points, not capital")
    return {"league": league.id, "season": season.id, "capital": start}


def record_season_table(g: Gateway, season: str, table: str) -> None:
    """Remember that ``table`` plays in ``season`` (its ledger counts for ever, also once
    the table is dropped). Saved before the table is used."""
    key = f"season-tables:{season}"
    tables = json.loads(g.store.get_meta(key) or "[]")
    if table not in tables:
        g.store.set_meta(key, json.dumps([*tables, table]))


def _season_tables(g: Gateway, season: str) -> list[str]:
    return [str(t) for t in json.loads(g.store.get_meta(f"season-tables:{season}") or "[]")]


def _ledgers(g: Gateway, season: str) -> list[tuple[Ledger, dict[str, int]]]:
    """Each of the season's tables' ledger, with the stacks on it now (none once dropped)."""
    found: list[tuple[Ledger, dict[str, int]]] = []
    for table in _season_tables(g, season):
        actor = g.tables.get(table)
        cash = None if actor is None else actor.core.cash
        if actor is not None and isinstance(cash, CashState):
            stacks = {s.player: s.stack for s in actor.core.seats.values()}
            found.append((cash.book.ledger, stacks))
            continue
        archived = archived_ledger(g.store, table)
        if archived is not None:
            found.append((archived, {}))
    return found


def _net(ledger: Ledger, player: str) -> int:
    """What ``player`` took out of this table minus what he brought to it."""
    out = sum(e.amount for e in ledger.entries if e.player == player and e.move in OUT)
    brought = sum(e.amount for e in ledger.entries if e.player == player and e.move in IN)
    return out - brought


def with_capital(g: Gateway, actor: TableActor, cmd: tc.Command) -> tc.Command:
    """A buy-in or chips added at a season's table carry what the player's capital still
    allows (the table refuses more: ``cash.capital``); any other command is unchanged."""
    season = actor.config.extra.get("season")
    start = actor.config.extra.get("capital")
    if not isinstance(season, str) or not isinstance(start, int):
        return cmd
    if not isinstance(cmd, tc.BuyIn | tc.AddChips) or cmd.conn.player is None:
        return cmd
    player = cmd.conn.player
    available = start + sum(_net(ledger, player) for ledger, _ in _ledgers(g, season))
    return dataclasses.replace(cmd, capital=available)


def capital_standings(g: Gateway, season: str, start: int) -> list[dict[str, Any]]:
    """The season's general standings (« donnera le classement général »): each member who
    played, his capital (start + results, chips on the tables counted), best first; ties by
    name. A member's id is his player id without ``m.``."""
    capital: dict[str, int] = {}
    names: dict[str, str] = {}
    for ledger, stacks in _ledgers(g, season):
        for entry in ledger.entries:
            if entry.player:
                names[entry.player] = entry.name
        for player in {e.player for e in ledger.entries if e.player}:
            result = _net(ledger, player) + stacks.get(player, 0)
            capital[player] = capital.get(player, start) + result
    order = sorted(capital, key=lambda p: (-capital[p], names[p]))
    return [
        {
            "member": player.removeprefix("m."),
            "name": names[player],
            "capital": capital[player],
            "barred": capital[player] <= 0,
        }
        for player in order
    ]
