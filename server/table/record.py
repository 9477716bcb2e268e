"""The signed record of a finished hand (pure): what the table shows of it, the fairness
openings of the cards dealt face up or shown only (cdc 3.6), signed by the dealer."""

from __future__ import annotations

from typing import Any

from server.dealing.draw import draws_of
from server.engine import Hand, Street, card_name
from server.table.cash import game_terms
from server.table.core import TableCore
from server.table.dealer import DrawHand

__all__ = ["hand_record"]


def hand_record(t: TableCore, hand: Hand, stacks: dict[int, int]) -> dict[str, Any]:
    assert t.dealt is not None and t.positions is not None and t.log is not None
    board = [card_name(c) for c in hand.board]
    record: dict[str, Any] = {
        "format": "brasseur-hand/1",
        "table": t.table,
        "table_name": t.config.name,
        "profile": t.profile.id,
        "started_at": t.wall(),
        "tournament": _tournament(t),
        "blinds": {
            "sb": t.blinds.sb,
            "bb": t.blinds.bb,
            "ante": t.blinds.ante,
            "ante_format": t.blinds.ante_format.value,
        },
        "max_seats": t.config.max_seats,
        "button": t.positions.button,
        **t.log.record(hand.events, board, stacks),
    }
    shown = [int(s) for s in record["shown"]]
    if isinstance(t.dealt, DrawHand):
        # five-card draw: the betting structure, and the fairness fields of the draw (the
        # public draws, the hands shown; never a discard, the burn card or the stub)
        record["structure"] = game_terms(t)[1].value
        draws = draws_of(hand.events, {p: int(p) for p in hand.names})
        record.update(t.dealt.fairness(board_count=0, shown=shown, draws=draws))
        return t.dealer.sign(record)
    runs = hand.runs
    # fpc multi-bordes, run it twice: the runs dealt are opened, five cards each from a
    # preflop all-in, the turn and river from a flop all-in (the flop stays); nothing else
    run_cards = 0 if runs == 1 else 5 if hand.runs_from is Street.FLOP else 2
    record.update(
        t.dealt.fairness(
            board_count=len(board), shown=shown, runs_dealt=runs, run_board_count=run_cards
        )
    )
    return t.dealer.sign(record)


def _tournament(t: TableCore) -> dict[str, Any] | None:
    """Which tournament the hand belongs to (None at a friends or cash table): its id and
    name, the buy-in (0: a freeroll), the level being played and the table's number in it
    (the table id is ``<tournament>-<number>``)."""
    extra = t.config.extra
    tid = extra.get("tournament")
    if tid is None:
        return None
    suffix = t.table[len(str(tid)) + 1 :]
    return {
        "id": str(tid),
        "name": str(extra.get("tournament_name", "")),
        "buyin": int(extra.get("buy_in", 0)),
        "level": t.level or 1,
        "table_number": int(suffix) if suffix.isdigit() else 1,
    }
