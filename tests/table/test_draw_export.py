"""A player's own export of his five-card draw hands (issue 31): the PokerStars text shows
his own draw, the cards he discarded and drew, even in a hand he mucked, from the private
``drawn`` events addressed to him; nobody else's draw shows more than its count."""

from __future__ import annotations

from server.store.export import export_page
from server.store.reader import draws_of, holes_of
from server.table.phases import TablePhase

from .drawtable import call_down, draw, draw_table, draw_turn, drawer, records


def test_his_own_export_shows_his_draw_and_nobody_elses() -> None:
    p = draw_table("ab")
    p.start_hand()
    call_down(p)
    while (seat := drawer(p)) is not None:
        draw(p, seat, draw_turn(p, seat).cards[:2])
    call_down(p)
    p.until(TablePhase.BETWEEN)
    (record,) = records(p)
    payloads = [(kind, data) for _, kind, data in p.net.events()]
    player = p.table.seats[1].player
    mine = holes_of((d for k, d in payloads if k == "hole"), player, 1, 1)
    drawn = draws_of((d for k, d in payloads if k == "drawn"), player, 1, 1)
    assert drawn[1][0] == 1 and len(drawn[1][1]["received"]) == 2
    body, hands = export_page([record], "txt", max_bytes=100_000, mine=mine, drawn=drawn)
    text = body.decode()
    assert hands == 1
    received = " ".join(drawn[1][1]["received"])
    assert f"A: discards 2 cards and draws [{received}]" in text
    assert "B: discards 2 cards\n" in text  # the other's draw: its count only
    # without his own events (anyone's export of the table): counts only
    public, _ = export_page([record], "txt", max_bytes=100_000)
    assert "and draws" not in public.decode()
