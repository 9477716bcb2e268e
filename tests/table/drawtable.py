"""A five-card draw cash table on the pure table (fpc « LE FIVE-CARD DRAW »), and what its
tests check of every hand: the private cards went to their owner only, the records verify."""

from __future__ import annotations

from typing import Any

from protocol import messages as m
from protocol.verify import verify_record
from server.engine import Hand
from server.table import commands as c
from server.table.phases import TablePhase

from .pure import Pure

CAVE = 5_000
"""« La cave est de 5 000 jetons »."""


def draw_table(players: str = "abc", **config: Any) -> Pure:
    """An fpc draw cash table (blinds 50/100, 2 to 6 players), ``players`` bought in at
    seats 1, 2, ... with the cave."""
    config.setdefault("action_seconds", 5)
    p = Pure(profile="fpc", sb=50, bb=100, max_seats=6, cash={"game": "draw"}, **config)
    for seat, player in enumerate(players, start=1):
        buy(p, player, seat)
    return p


def buy(p: Pure, player: str, seat: int, amount: int = CAVE) -> None:
    conn = p.conn(player)
    p.do(c.Watch(conn=conn))
    p.do(c.BuyIn(conn=conn, seat=seat, name=player.upper(), amount=amount))


def hand(p: Pure) -> Hand:
    h = p.table.hand
    assert h is not None
    return h


def drawer(p: Pure) -> int | None:
    """The seat whose turn it is to draw, or None."""
    menu = hand(p).draw_menu() if p.table.phase is TablePhase.BETTING else None
    return None if menu is None else int(menu.player)


def conn_of(p: Pure, seat: int) -> c.Conn:
    return p.conns[p.table.seats[seat].player]


def draw_turn(p: Pure, seat: int) -> m.Turn:
    """The latest draw ``turn`` the seat's player got."""
    turns = [t for t in p.net.of(conn_of(p, seat).cid, m.Turn) if t.draw]
    assert turns, f"seat {seat} got no draw turn"
    return turns[-1]


def draw(p: Pure, seat: int, cards: tuple[str, ...] = (), **kw: Any) -> None:
    """The seat's player sends ``draw`` (answering his open draw decision unless told)."""
    if "decision" not in kw:
        kw["decision"] = draw_turn(p, seat).decision
    p.send(conn_of(p, seat), m.Draw(table="t1", hand=p.table.hand_no, cards=cards, **kw))


def call_down(p: Pure) -> None:
    """Every player calls or checks until the draw or the hand's end."""
    while p.table.phase is TablePhase.BETTING and (menu := hand(p).menu()) is not None:
        p.act(int(menu.player), "check" if menu.can_check else "call")


def records(p: Pure) -> list[dict[str, Any]]:
    return [b.record[1] for b in p.net.store if b.record is not None]


def private_leaks(p: Pure) -> list[str]:
    """Every card a connection received that was not its own player's: a ``hole`` or
    ``drawn`` event with cards for a seat its player was not dealt in at (another player's,
    a spectator's, the next occupant's), or a snapshot's ``hole`` of another player."""
    dealt: dict[tuple[int, int], str] = {}
    for _, kind, data in p.net.events():
        if kind == "hole":
            dealt[(data["hand"], data["seat"])] = data["owner"]
    leaks = []
    for cid, frames in p.net.received.items():
        player = p.player_of.get(cid)
        for f in frames:
            if isinstance(f, m.HoleCards | m.DrawnEvent):
                owner = dealt.get((f.hand, f.seat))
                if (f.cards or getattr(f, "received", ())) and (player is None or owner != player):
                    leaks.append(f"{cid} ({player}) got {f.TYPE} of seat {f.seat}")
            elif isinstance(f, m.Snapshot) and "hole" in f.state:
                owner = dealt.get((f.state["hand"], f.state["you"]))
                if player is None or owner != player:
                    leaks.append(f"{cid} ({player}) got a snapshot with seat {f.state['you']}'s")
    return leaks


def unverified(p: Pure) -> list[str]:
    return [f"hand {r['hand']}: {e}" for r in records(p) for e in verify_record(r)]
