"""The runs of the board of a hand record: where each run's cards come from, and the check
:mod:`protocol.verify` runs on every record (fpc cash "multi-bordes", run it twice).

Standalone (imports nothing from ``server/``), as :mod:`protocol.verify`.

Slots
    run ``k >= 2`` of a hold'em deal of ``n`` players takes the eight slots after run
    ``k - 1``'s, in the shape of run 1's (:func:`protocol.slots.board_slots`): burn
    ``2n + 8(k-1)``, flop ``+1, +2, +3``, burn ``+4``, turn ``+5``, burn ``+6``, river
    ``+7``. Fixed before the deal, whatever happens in the hand. A run from the flop (all-in
    on the flop: « Le flop reste identique pour les 3 tirages », fpc cash) deals only its
    turn and river slots; its flop slots are never dealt, never opened (cdc 3.6).
Record fields (all absent for a hand dealt once)
    ``"runs"``: how many runs were dealt (2 or 3); ``"slots"`` gains ``"runs"`` (the five
    board slots of each run after the first) and may give ``"run_burns"`` (their three burn
    slots); ``"run_boards"``: the cards of each run after the first, five (all-in preflop)
    or two (its turn and river, all-in on the flop: the flop is ``"board"``'s), each opened
    at ``(cut + slot) % 52``; the ``"pots"`` contested by the two players come in one part
    per run, ``"run"`` 1 to N (absent: 1), and a pot only one player could win in one part
    (run 1). The parts of a pot pay, net of the pot's ``"rake"`` (on run 1's part), no more
    to a later run than to an earlier one: the odd chips go to the first runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise
from typing import Final, TypeGuard

from .slots import DECK_SIZE, board_slots, burn_slots, deck_position

__all__ = ["MAX_RUNS", "RUN_SLOTS", "check_runs", "run_board_slots", "run_burn_slots"]

MAX_RUNS: Final = 3
"""The most runs of the board a hand is dealt (fpc cash: « 3 tirages »)."""
RUN_SLOTS: Final = 8
"""Slots each run takes, burns included (three burns, five board cards)."""
_NAMES: Final[tuple[str, ...]] = tuple(r + s for r in "23456789TJQKA" for s in "cdhs")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_runs_fit(players: int, run: int) -> None:
    if not 1 <= run <= MAX_RUNS:
        raise ValueError(f"a run is numbered 1..{MAX_RUNS}, not {run}")
    if 2 * players + RUN_SLOTS * run > DECK_SIZE:
        raise ValueError(f"{run} runs of the board do not fit a deck with {players} players")


def run_board_slots(players: int, run: int) -> tuple[int, int, int, int, int]:
    """The board slots of run ``run`` (1-based; run 1 is :func:`board_slots`). Raises
    ValueError for a run outside 1..3 or runs that do not fit the deck with ``players``."""
    _check_runs_fit(players, run)
    shift = RUN_SLOTS * (run - 1)
    a, b, c, d, e = board_slots(players)
    return (a + shift, b + shift, c + shift, d + shift, e + shift)


def run_burn_slots(players: int, run: int) -> tuple[int, int, int]:
    """The burn slots of run ``run`` (before its flop, turn and river). Raises as
    :func:`run_board_slots`."""
    _check_runs_fit(players, run)
    shift = RUN_SLOTS * (run - 1)
    a, b, c = burn_slots(players)
    return (a + shift, b + shift, c + shift)


def check_runs(
    record: Mapping[str, object], cut: int, opened: Mapping[int, int], problems: list[str]
) -> set[int]:
    """Check the runs of ``record`` (see the module docstring), appending to ``problems``.

    ``opened`` is the card opened at each position (checked by the caller). Returns the
    positions of the runs' cards, which may be opened. Assumes ``players_dealt`` was checked.
    """
    runs = record.get("runs", 1)
    if not _is_int(runs) or not 1 <= runs <= MAX_RUNS:
        problems.append(f"runs must be an integer in 1..{MAX_RUNS}")
        return set()
    _check_pot_parts(record.get("pots"), runs, problems)
    slots = record.get("slots")
    run_slots = slots.get("runs") if isinstance(slots, Mapping) else None
    boards = record.get("run_boards")
    if runs == 1:
        if boards is not None or run_slots is not None:
            problems.append("run_boards or slots.runs given for a hand dealt once")
        return set()
    players = record.get("players_dealt")
    if not _is_int(players):
        return set()  # reported by protocol.verify
    try:
        expected = [list(run_board_slots(players, k)) for k in range(2, runs + 1)]
        burns = [list(run_burn_slots(players, k)) for k in range(2, runs + 1)]
    except ValueError as exc:
        problems.append(str(exc))
        return set()
    if run_slots != expected:
        problems.append(f"slots.runs is not the deal order for {players} players {expected}")
    if isinstance(slots, Mapping) and "run_burns" in slots and slots["run_burns"] != burns:
        problems.append(f"slots.run_burns is not the deal order for {players} players {burns}")
    return _check_run_boards(record, boards, expected, cut, opened, problems)


def _check_run_boards(
    record: Mapping[str, object],
    boards: object,
    expected: list[list[int]],
    cut: int,
    opened: Mapping[int, int],
    problems: list[str],
) -> set[int]:
    """Every run's cards opened where its slots put them. Returns their positions."""
    if (
        not isinstance(boards, list)
        or len(boards) != len(expected)
        or not all(isinstance(b, list) for b in boards)
        or len({len(b) for b in boards}) != 1
        or len(boards[0]) not in (2, 5)
    ):
        problems.append(
            f"run_boards must list {len(expected)} runs of five cards (all-in preflop) or two"
            " (turn and river, all-in on the flop)"
        )
        return set()
    main = record.get("board")
    if not isinstance(main, list) or len(main) != 5:
        problems.append("a hand dealt in several runs deals the whole first board")
    allowed: set[int] = set()
    for run, (cards, slots) in enumerate(zip(boards, expected, strict=True), start=2):
        used = slots if len(cards) == 5 else slots[3:]
        for k, (name, slot) in enumerate(zip(cards, used, strict=True), start=1):
            position = deck_position(cut, slot)
            allowed.add(position)
            where = f"position {position} = (cut {cut} + slot {slot}) % 52"
            label = f"run {run} card {k} {name!r}"
            if position not in opened:
                problems.append(f"{label}: no opening at {where}")
            elif _NAMES[opened[position]] != name:
                problems.append(f"{label}: the opening at {where} is {_NAMES[opened[position]]}")
    return allowed


def _check_pot_parts(pots: object, runs: int, problems: list[str]) -> None:
    """Each pot in one part, or in one part per run, later runs paid no more than earlier."""
    if not isinstance(pots, list):
        return
    parts: dict[int, dict[int, int]] = {}
    for pot in pots:
        if not isinstance(pot, Mapping):
            continue
        run, index = pot.get("run", 1), pot.get("index")
        amount, rake = pot.get("amount"), pot.get("rake", 0)
        if not _is_int(run) or not 1 <= run <= runs:
            problems.append(f"pot {index}: run {run!r} outside 1..{runs}")
            continue
        if not _is_int(index) or not _is_int(amount) or not _is_int(rake):
            continue  # reported by protocol.chips
        mine = parts.setdefault(index, {})
        if run in mine:
            problems.append(f"pot {index}: two parts for run {run}")
            continue
        mine[run] = amount - rake
    for index, mine in parts.items():
        if sorted(mine) not in ([1], list(range(1, runs + 1))):
            problems.append(f"pot {index}: parts for runs {sorted(mine)}, not one or 1..{runs}")
            continue
        nets = [mine[run] for run in sorted(mine)]
        if any(later > earlier for earlier, later in pairwise(nets)):
            problems.append(
                f"pot {index}: runs paid {nets}: a later run paid more (odd chips to the first)"
            )
