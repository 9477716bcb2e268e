"""The PokerStars text of a hand dealt in several runs (fpc cash multi-bordes, run it twice).

:mod:`.export` writes a hand dealt once; for a record with ``"runs"`` (2 or 3) it takes from
here what PokerStars writes differently::

    *** FIRST FLOP *** [7c 7h 4h]                 (all-in preflop: a whole board per run)
    *** FIRST TURN *** [7c 7h 4h] [7s]
    *** FIRST RIVER *** [7c 7h 4h 7s] [5h]
    *** SECOND FLOP *** [3s As 4s]
    ...
    *** FIRST SHOW DOWN ***
    Hero: shows [Kc Ad] (three of a kind, Sevens)
    bob collected 500 from pot
    *** SECOND SHOW DOWN ***
    ...
    *** SUMMARY ***
    Total pot 1000 | Rake 0
    Hand was run twice
    FIRST Board [7c 7h 4h 7s 5h]
    SECOND Board [3s As 4s 6s 6h]
    Seat 1: Hero showed [Kc Ad] and lost with three of a kind, Sevens, and won (500) with ...

All-in on the flop, the flop stays: ``*** FLOP *** [..]`` then ``*** FIRST TURN *** [flop]
[t]``, ``*** FIRST RIVER ***``, ``*** SECOND TURN *** [flop] [t2]``... (the layout of
PokerStars' run-it-twice histories; THIRD for the third run, "Hand was run three times").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

from .handdesc import describe_hand

__all__ = [
    "board_lines",
    "first_street",
    "merged_pots",
    "run_boards",
    "seat_result",
    "showdown_lines",
    "street_lines",
]

_ORDINALS: Final = ("FIRST", "SECOND", "THIRD")
_TIMES: Final = {2: "twice", 3: "three times"}


def _cards(cards: Iterable[str]) -> str:
    return " ".join(cards)


def _describe(cards: list[str], board: list[str]) -> str | None:
    try:
        return describe_hand([*cards, *board])
    except ValueError:
        return None


def run_boards(record: Mapping[str, Any], board: list[str]) -> list[list[str]]:
    """Each run's five cards, run 1 (``board``) first; ``[board]`` for a hand dealt once."""
    extra = record.get("run_boards") or []
    if int(record.get("runs", 1)) <= 1 or not extra:
        return [board]
    return [board] + [[*board[: 5 - len(cards)], *cards] for cards in extra]


def first_street(record: Mapping[str, Any]) -> str | None:
    """The first street dealt once per run (``"flop"`` or ``"turn"``), None for one run."""
    extra = record.get("run_boards") or []
    if int(record.get("runs", 1)) <= 1 or not extra:
        return None
    return "flop" if len(extra[0]) == 5 else "turn"


def street_lines(boards: list[list[str]], first: str) -> list[str]:
    """The street lines of every run, run by run, from ``first`` on."""
    lines: list[str] = []
    for run, cards in enumerate(boards):
        name = _ORDINALS[run]
        if first == "flop":
            lines.append(f"*** {name} FLOP *** [{_cards(cards[:3])}]")
        lines.append(f"*** {name} TURN *** [{_cards(cards[:3])}] [{cards[3]}]")
        lines.append(f"*** {name} RIVER *** [{_cards(cards[:4])}] [{cards[4]}]")
    return lines


def merged_pots(pots: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One pot per ``index``, its runs' parts added up (amount, rake, shares), in order."""
    merged: dict[int, dict[str, Any]] = {}
    for pot in pots:
        index = int(pot.get("index", len(merged)))
        into = merged.setdefault(index, {"index": index, "amount": 0, "rake": 0, "shares": []})
        into["amount"] += int(pot.get("amount", 0))
        into["rake"] += int(pot.get("rake", 0))
        into["shares"] += [list(share) for share in pot.get("shares") or []]
    return [merged[index] for index in sorted(merged)]


def _label(index: int, count: int) -> str:
    if count == 1:
        return "pot"
    if index == 0:
        return "main pot"
    return "side pot" if count == 2 else f"side pot-{index}"


def _run_won(pots: list[Mapping[str, Any]], run: int) -> dict[int, int]:
    won: dict[int, int] = {}
    for pot in pots:
        if int(pot.get("run", 1)) == run:
            for seat, amount in pot.get("shares") or []:
                won[int(seat)] = won.get(int(seat), 0) + int(amount)
    return won


def showdown_lines(
    name: Callable[[int], str],
    contenders: list[int],
    shown: Mapping[int, list[str]],
    boards: list[list[str]],
    pots: list[Mapping[str, Any]],
) -> list[str]:
    """``*** FIRST SHOW DOWN ***`` and the hands ranked on run 1's board, what each part of
    run 1 paid; then the same for each run. A pot only one player could win is in run 1."""
    count = len({int(p.get("index", 0)) for p in pots})
    lines: list[str] = []
    for run, board in enumerate(boards, start=1):
        lines.append(f"*** {_ORDINALS[run - 1]} SHOW DOWN ***")
        for seat in contenders:
            if seat in shown:
                description = _describe(shown[seat], board)
                text = f"{name(seat)}: shows [{_cards(shown[seat])}]"
                lines.append(text + (f" ({description})" if description else ""))
        for pot in sorted(pots, key=lambda p: -int(p.get("index", 0))):
            if int(pot.get("run", 1)) != run:
                continue
            label = _label(int(pot.get("index", 0)), count)
            for seat, amount in pot.get("shares") or []:
                lines.append(f"{name(int(seat))} collected {amount} from {label}")
    return lines


def board_lines(boards: list[list[str]]) -> list[str]:
    """``Hand was run twice`` and each run's ``FIRST Board [..]``."""
    times = _TIMES.get(len(boards), f"{len(boards)} times")
    lines = [f"Hand was run {times}"]
    for run, board in enumerate(boards):
        lines.append(f"{_ORDINALS[run]} Board [{_cards(board)}]")
    return lines


def seat_result(
    seat: int, cards: list[str], boards: list[list[str]], pots: list[Mapping[str, Any]]
) -> str:
    """`` showed [..] and won (N) with D, and lost with D2``: the seat's result on each run."""
    parts = []
    for run, board in enumerate(boards, start=1):
        amount = _run_won(pots, run).get(seat, 0)
        result = f"won ({amount})" if amount else "lost"
        description = _describe(cards, board)
        parts.append(result + (f" with {description}" if description else ""))
    return f" showed [{_cards(cards)}] and " + ", and ".join(parts)
