"""A room of cash tables: one host, players moving between the tables (the gateway's part).

A cash table created with ``room`` (the host token of another cash table) joins that table's
room. Between the room's tables (server.cash.moves for the rules):

- a seated player asks ``change_table``: fpc cash moves him at once with his whole stack;
  casino cash asks the host (a ``seat_request`` with ``to``), who agrees with ``host`` ``move``;
- the host orders ``move`` (a player to another table: casino terms, at most its maximum and
  a seat fee again), ``balance`` (the players after the big blind of the fullest table go to
  the emptiest, whole stacks) or ``merge`` (every player of this table to another).

Each move is two table writes: the source saves the stack gone (``moved_out``), then its
``Transfer`` effect reaches :func:`transfer`, which tells the player (``moved``) and asks the
target to seat him (``moved_in``). No chip is in two places at once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Protocol

from protocol import ErrorCode, ProtocolError, encode
from protocol import messages as m
from server.cash import CashRules, Ledger, Refusal, game_refusal
from server.cash.moves import MoveKind, balance_pick, move_terms, next_after_big_blind
from server.engine import Game
from server.gateway.connection import Connection
from server.gateway.host_orders import host_message
from server.store import Store
from server.table import commands as tc
from server.table.actor import TableActor
from server.table.effects import Transfer
from server.table.seats import SeatState
from server.tokens import TokenAuthority

__all__ = [
    "ROOM_OPS",
    "RoomHost",
    "archived_ledger",
    "change_table",
    "closing_ledger",
    "host_or_room",
    "relocate",
    "room_for_new_table",
    "transfer",
]

ROOM_OPS = frozenset({"move", "balance", "merge"})


class RoomHost(Protocol):
    """What a room of cash tables reads of the process around it (the gateway satisfies it;
    this module never imports the gateway)."""

    @property
    def tables(self) -> Mapping[str, TableActor]: ...
    @property
    def connections(self) -> Mapping[str, Connection]: ...
    @property
    def auth(self) -> TokenAuthority: ...
    def table_actor(self, table: str) -> TableActor: ...


def room_of(actor: TableActor) -> str | None:
    """The room a cash table belongs to (its own id when it was made alone); None for a
    table that is not a cash table."""
    if actor.cash_rules() is None:
        return None
    return str(actor.config.extra.get("room") or actor.table)


def closing_ledger(actor: TableActor, now: float) -> str | None:
    """A cash table's ledger as it is dropped (idle for too long), to keep: the stacks still
    on it written cashed out to their players (JSON; None for another table). The gateway
    saves it before dropping the table (a failure keeps the table), and
    ``GET /api/tables/<t>/ledger.csv`` serves it afterwards."""
    ledger = actor.closing_ledger(now)
    return None if ledger is None else json.dumps(ledger.to_json())


def archived_ledger(store: Store, table: str) -> Ledger | None:
    text = store.get_meta(f"ledger:{table}")
    return None if text is None else Ledger.from_json(json.loads(text))


def room_listing(g: RoomHost, actor: TableActor) -> dict[str, object]:
    """The room of a cash table as its players see it (``GET /api/tables/<t>/room``): each
    table's id, name, blinds, limits and seats taken, to choose where to change to."""
    room = room_of(actor)
    tables = [a for a in g.tables.values() if room is not None and room_of(a) == room]
    return {
        "room": room,
        "tables": [
            {
                "table": a.table,
                "name": a.config.name,
                "blinds": list(a.blinds),
                "min_buy_in": _rules(a).min_buyin,
                "max_buy_in": _rules(a).max_buyin,
                "players": len(a.seats),
                "max_seats": a.config.max_seats,
                # « Les caves sont spécifiques à chaque jeu »: where a player may change to
                "game": _rules(a).game.value,
                "structure": _rules(a).structure.value,
            }
            for a in sorted(tables, key=lambda a: a.table)
        ],
    }


def room_for_new_table(g: RoomHost, message: m.CreateTable) -> str | None:
    """The room a new table joins: that of the cash table whose host token ``room`` is."""
    if not message.room:
        return None
    claims = g.auth.verify(message.room, "host")
    host = g.table_actor(str(claims.get("t")))
    room = room_of(host)
    if room is None or message.game not in ("cash", "draw"):
        raise ProtocolError(Refusal.ROOM.value, "a room holds cash tables only")
    game = Game.DRAW if message.game == "draw" else Game.HOLDEM
    if _rules(host).game is not game:  # fpc: « Les caves sont spécifiques à chaque jeu »
        raise ProtocolError(
            Refusal.GAME.value, f"this room deals {_rules(host).game.value}: its tables too"
        )
    return room


def _rules(actor: TableActor) -> CashRules:
    rules = actor.cash_rules()
    assert rules is not None
    return rules


def _target(g: RoomHost, source: TableActor, name: str) -> TableActor:
    target = g.table_actor(name)
    room = room_of(source)
    if room is None or target is source or room_of(target) != room:
        raise ProtocolError(Refusal.ROOM.value, "not another cash table of this room")
    if (refusal := game_refusal(_rules(source), _rules(target))) is not None:
        code, why = refusal  # chips bought for one game are never played at another
        raise ProtocolError(code.value, why)
    return target


def _has_room_for(target: TableActor, players: int) -> None:
    if target.config.max_seats - len(target.seats) < players:
        full = f"{target.config.name} has no free seat for them"
        raise ProtocolError(Refusal.TABLE_FULL.value, full)


def _movable(actor: TableActor) -> list[SeatState]:
    return [
        s
        for s in sorted(actor.seats.values(), key=lambda s: s.seat)
        if s.stack > 0 and not s.moving and not s.leaving and s.seat not in actor.moving_seats()
    ]


def change_table(g: RoomHost, conn: Connection, msg: m.ChangeTable) -> None:
    """A seated player asks to change table (see the module docstring)."""
    source = g.table_actor(msg.table)
    target = _target(g, source, msg.to)
    state = next((s for s in source.seats.values() if s.player == conn.pid), None)
    if state is None:
        raise ProtocolError(ErrorCode.NOT_SEATED, "you have no seat at this table")
    terms = move_terms(MoveKind.CHANGE, state.stack, _rules(target))
    who = source.conn(conn)
    if terms.approval:  # casino: « il devra obtenir l'accord du superviseur »
        ask = tc.AskChange(conn=who, to=target.table, to_name=target.config.name, ref=msg.id)
        source.post(ask, conn)
        return
    _has_room_for(target, 1)
    source.post(_move(state, target, MoveKind.CHANGE, None, False, "", who, msg.id), conn)


def host_or_room(g: RoomHost, conn: Connection, msg: m.Host) -> None:
    """A host's order: a room's (move, balance, merge) here, the others at the table."""
    source = g.table_actor(msg.table)
    if msg.op not in ROOM_OPS:
        host_message(source, g.auth, conn, msg)
        return
    claims = g.auth.verify(msg.token, "host")
    if claims.get("t") != msg.table:
        raise ProtocolError(ErrorCode.BAD_TOKEN, "this host token is for another table")
    if room_of(source) is None:
        raise ProtocolError(Refusal.ROOM.value, "moves are between the cash tables of a room")
    who = source.conn(conn)
    if msg.op == "balance":
        _balance(g, source, who, msg.id)
        return
    target = _target(g, source, msg.to)
    if msg.op == "merge":
        players = _movable(source)
        _has_room_for(target, len(players))
        for player in players:
            source.post(_move(player, target, MoveKind.MERGE, None, False, "host", who, msg.id))
        return
    state = source.seats.get(msg.seat or 0)
    if state is None or state.stack <= 0:
        raise ProtocolError(ErrorCode.BAD_SEAT, "nobody with chips sits there")
    _has_room_for(target, 1)
    terms = move_terms(MoveKind.CHANGE, state.stack, _rules(target))
    cap = _rules(target).max_buyin if terms.approval else None
    source.post(_move(state, target, MoveKind.CHANGE, cap, terms.seat_fee, "host", who, msg.id))


def _balance(g: RoomHost, source: TableActor, who: tc.Conn, ref: int | None) -> None:
    """casino cash: « on déplacera le ou les prochains joueurs après la grosse blind de la
    table comprenant le plus de joueurs »."""
    room = room_of(source)
    tables = {  # within the game of this table (« Les caves sont spécifiques à chaque jeu »)
        a.table: a
        for a in g.tables.values()
        if room_of(a) == room and game_refusal(_rules(source), _rules(a)) is None
    }
    counts = {name: len(_movable(a)) for name, a in tables.items()}
    free = {name: a.config.max_seats - len(a.seats) for name, a in tables.items()}
    plan = balance_pick(counts, free)
    if plan is None:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "the room's tables are balanced")
    fullest, emptiest, count = plan
    actor, target = tables[fullest], tables[emptiest]
    movable = {s.seat: s for s in _movable(actor)}
    big_blind = actor.big_blind_seat
    for seat in next_after_big_blind(list(movable), big_blind, count, actor.config.max_seats):
        actor.post(_move(movable[seat], target, MoveKind.BALANCE, None, False, "host", who, ref))


def _move(
    state: SeatState,
    target: TableActor,
    kind: MoveKind,
    cap: int | None,
    seat_fee: bool,
    by: str,
    who: tc.Conn,
    ref: int | None,
) -> tc.MoveOut:
    return tc.MoveOut(
        seat=state.seat,
        player=state.player,
        to=target.table,
        to_name=target.config.name,
        kind=kind.value,
        cap=cap,
        seat_fee=seat_fee,
        by=by,
        conn=who,
        ref=ref,
    )


def relocate(g: RoomHost, conn: Connection, table: str, seat: int) -> tuple[str, int]:
    """Where the holder of a seat token of ``table`` sits now: a player moved while he was
    away (balancing, a merge) comes back with his old table's token and is sent to his new
    seat (``moved``, then that table grants the seat and a new token). Unchanged otherwise."""
    actor = g.tables.get(table)
    state = None if actor is None else actor.seats.get(seat)
    room = None if actor is None else room_of(actor)
    if room is None or (state is not None and state.player == conn.pid):
        return table, seat
    for other in g.tables.values():
        if room_of(other) != room:
            continue
        for found in other.seats.values():
            if found.player == conn.pid:
                conn.invites.add(other.table)
                invite = g.auth.invite(other.table)
                moved = m.Moved(
                    tournament="",
                    table=other.table,
                    seat=found.seat,
                    from_table=table,
                    reason="moved",
                    invite=invite,
                )
                conn.deliver(encode(moved))
                return other.table, found.seat
    return table, seat


def transfer(g: RoomHost, source: TableActor, effect: Transfer) -> None:
    """The source saved the stack gone: tell the player and seat him at the target."""
    target = g.tables.get(effect.to)
    conn = g.connections.get(effect.cid) if effect.cid is not None else None
    if target is None:  # closed meanwhile: the stack stays cashed out to him at the source
        if conn is not None:
            error = m.Error(code=Refusal.TABLE_FULL.value, message="that table is gone")
            conn.deliver(encode(error))
        return
    if conn is not None:
        conn.tables.discard(effect.source)
        conn.tables.add(effect.to)
        conn.invites.add(effect.to)
        moved = m.Moved(
            tournament="",
            table=effect.to,
            seat=0,
            from_table=effect.source,
            reason=effect.kind,
            invite=g.auth.invite(effect.to),
        )
        conn.deliver(encode(moved))
    command = tc.MoveIn(
        conn=target.conn(conn) if conn is not None else None,
        player=effect.player,
        name=effect.name,
        stack=effect.stack,
        source=effect.source,
        kind=effect.kind,
        seat_fee=effect.seat_fee,
    )
    target.post(command, conn)
