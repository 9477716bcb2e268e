"""The fairness part of a hand record, and the private openings of a player's hole cards.

A record (format ``brasseur-hand/1``, checked by ``python -m protocol.verify``) holds::

    {"format": "brasseur-hand/1", "table": str, "hand": int, "profile": str,
     "root": hex, "cut": int, "players_dealt": int, "deal_order": [seat, ...],
     "slots": {"hole": {seat: [slot, slot]}, "board": [5 slots], "burn": [3 slots]},
     "board": ["As", ...], "shown": {seat: ["Kd", "Kh"]},
     "opened": [{"position": p, "card": "As", "salt": hex, "proof": [[side, hex], ...]}],
     ...the table's own fields (actions, results), opaque to the verifier...,
     "public_key": hex, "signature": hex}

A hand dealt in several runs (fpc cash multi-bordes, run it twice) adds ``"runs": N``,
``"run_boards": [[cards of run 2], ...]`` (five cards each, or two: the turn and river when
the flop stays) and ``slots.runs``/``slots.run_burns`` (:mod:`protocol.runs`); the table
writes each part of a divided pot in ``pots`` with its ``"run"``.

Seats are written as strings (JSON object keys). Only the board cards dealt face up and the
hands shown are opened: never undealt, burnt or mucked positions (cdc 3.6, tda 28), nor the
flop slots of runs from the flop.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from protocol.verify import BOARD_SIZES, RECORD_FORMAT
from server.engine.cards import card_name

from .deck import DealingError, Deck, Opening
from .layout import DealLayout

__all__ = ["FAIRNESS_FIELDS", "fairness_fields", "hand_record", "hole_openings"]

FAIRNESS_FIELDS = frozenset(
    {
        "format",
        "root",
        "cut",
        "players_dealt",
        "deal_order",
        "slots",
        "board",
        "shown",
        "opened",
        "runs",
        "run_boards",
    }
)
"""Keys :func:`hand_record` fills itself; ``extra`` may not set them."""


def fairness_fields(
    *,
    deck: Deck,
    layout: DealLayout,
    order: Sequence[int | str],
    board_dealt: int,
    shown: Iterable[int | str] = (),
    runs_dealt: int = 1,
    run_board_dealt: int = 0,
) -> dict[str, Any]:
    """The record fields that let anyone check the cards, opening only what the table saw.

    Includes ``"format"``; the table adds its own fields (table, hand, actions...) and signs.

    ``order`` lists the seats dealt in, first left of the button (``order[i]`` got
    ``layout.hole[i]``); ``board_dealt`` is how many board cards were dealt face up (0, 3,
    4 or 5); ``shown`` the seats whose two hole cards were shown (showdown, or face up at an
    all-in, cdc 10.4). ``runs_dealt``: the runs of the board dealt (2 or 3 when the hand
    was run several times, within ``layout.runs``), and ``run_board_dealt`` the cards of
    each run after the first (5 from a preflop all-in, 2 when the flop stayed; 0 for one
    run). Raises ValueError for a mismatch (seats, board count, runs) and
    :class:`DealingError` for an uncut deck.
    """
    if deck.cut is None:
        raise DealingError("the deck was never cut")
    seats = [str(seat) for seat in order]
    if len(seats) != layout.players or len(set(seats)) != len(seats):
        raise ValueError(f"order must list the {layout.players} seats dealt in, once each")
    if board_dealt not in BOARD_SIZES:
        raise ValueError(f"board_dealt must be one of {BOARD_SIZES}, not {board_dealt}")
    shown_seats = sorted({str(seat) for seat in shown}, key=seats.index)
    if unknown := set(shown_seats) - set(seats):
        raise ValueError(f"seats {sorted(unknown)} were not dealt in")

    run_slots = _run_slots(layout, board_dealt, runs_dealt, run_board_dealt)
    hole = {seat: layout.hole[i] for i, seat in enumerate(seats)}
    board = [deck.deal(slot) for slot in layout.board[:board_dealt]]
    shown_hands = {seat: [deck.deal(slot) for slot in hole[seat]] for seat in shown_seats}
    # fpc: « Les cartes des tirages précédents restent sur la table »: fresh cards each run
    run_boards = [[deck.deal(slot) for slot in slots] for slots in run_slots]
    positions = [p for p, _ in board] + [p for hand in shown_hands.values() for p, _ in hand]
    positions += [p for run in run_boards for p, _ in run]
    runs: dict[str, Any] = {}
    if runs_dealt > 1:
        runs = {
            "runs": runs_dealt,
            "run_boards": [[card_name(card) for _, card in run] for run in run_boards],
        }
    return {
        "format": RECORD_FORMAT,
        "root": deck.root_hex,
        "cut": deck.cut,
        "players_dealt": layout.players,
        "deal_order": seats,
        "slots": {
            "hole": {seat: list(pair) for seat, pair in hole.items()},
            "board": list(layout.board),
            "burn": list(layout.burns),
            **_runs_slots(layout, runs_dealt),
        },
        "board": [card_name(card) for _, card in board],
        "shown": {seat: [card_name(c) for _, c in hand] for seat, hand in shown_hands.items()},
        "opened": [o.to_json() for o in sorted(deck.opening(positions), key=_by_position)],
        **runs,
    }


def _run_slots(
    layout: DealLayout, board_dealt: int, runs_dealt: int, run_board_dealt: int
) -> list[tuple[int, ...]]:
    """The slots of the cards dealt for each run after the first (checked)."""
    if not 1 <= runs_dealt <= 1 + len(layout.runs):
        raise ValueError(f"runs_dealt must be 1..{1 + len(layout.runs)} for this layout")
    if runs_dealt == 1:
        if run_board_dealt:
            raise ValueError("run_board_dealt is 0 for a hand dealt once")
        return []
    if run_board_dealt not in (2, 5) or board_dealt != 5:
        raise ValueError("several runs deal the whole board and 5 or 2 cards of each run")
    return [slots[5 - run_board_dealt :] for slots in layout.runs[: runs_dealt - 1]]


def _runs_slots(layout: DealLayout, runs_dealt: int) -> dict[str, Any]:
    if runs_dealt == 1:
        return {}
    return {
        "runs": [list(slots) for slots in layout.runs[: runs_dealt - 1]],
        "run_burns": [list(slots) for slots in layout.run_burns[: runs_dealt - 1]],
    }


def hand_record(
    *,
    table: str,
    hand: int,
    profile: str,
    deck: Deck,
    layout: DealLayout,
    order: Sequence[int | str],
    board_dealt: int,
    shown: Iterable[int | str] = (),
    runs_dealt: int = 1,
    run_board_dealt: int = 0,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """An unsigned ``brasseur-hand/1`` record; sign it with :meth:`Signer.sign_record`.

    ``extra`` carries the table's own fields (actions, results...). Raises ValueError if
    ``extra`` sets a field of :data:`FAIRNESS_FIELDS` or ``table``/``hand``/``profile``,
    and as :func:`fairness_fields`.
    """
    extra = dict(extra or {})
    if clash := (set(extra) & (FAIRNESS_FIELDS | {"table", "hand", "profile"})):
        raise ValueError(f"extra may not set {sorted(clash)}")
    return {
        "table": table,
        "hand": hand,
        "profile": profile,
        **fairness_fields(
            deck=deck,
            layout=layout,
            order=order,
            board_dealt=board_dealt,
            shown=shown,
            runs_dealt=runs_dealt,
            run_board_dealt=run_board_dealt,
        ),
        **extra,
    }


def hole_openings(deck: Deck, layout: DealLayout, player: int) -> list[Opening]:
    """The openings of the ``player``-th (from the button's left) player's own hole cards.

    Send them to that player only: with the root and the cut, they prove the two cards were
    committed before the deal (:func:`protocol.verify.check_opening`). Raises IndexError for
    a player outside the layout and :class:`DealingError` before the cut.
    """
    return deck.opening(deck.position(slot) for slot in layout.hole[player])


def _by_position(opening: Opening) -> int:
    return opening.position
