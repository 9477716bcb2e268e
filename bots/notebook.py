"""Bots at the same table compare notes: nobody saw another's hole cards, the cards shown at
showdown are the ones dealt, and no card was dealt twice.

At five-card draw a seat's cards are those it holds after its draw (its ``drawn``), and no
card is in two hands at once, either as dealt or after the draw; a card may be dealt again
after the draw only when the stub ran out (an earlier player's discard in a new stub).

Each bot hands in its :class:`~bots.mirror.HandNotes` at the end of a hand; once every bot of the
table has (or two hands later), the hand is checked and forgotten.
"""

from __future__ import annotations

from collections.abc import Callable

from .mirror import HandNotes

__all__ = ["Notebook"]


class Notebook:
    def __init__(self, report: Callable[[str, str], None]) -> None:
        self.report = report
        self.members: dict[str, int] = {}
        """Bots per table handing in notes."""
        self.pending: dict[tuple[str, int], list[HandNotes]] = {}
        self.checked = 0

    def join(self, table: str) -> None:
        self.members[table] = self.members.get(table, 0) + 1

    def leave(self, table: str) -> None:
        self.members[table] = max(0, self.members.get(table, 0) - 1)

    def hand_in(self, notes: HandNotes) -> None:
        key = (notes.table, notes.hand)
        bucket = self.pending.setdefault(key, [])
        bucket.append(notes)
        if len(bucket) >= self.members.get(notes.table, 0):
            self._check(key)
        stale = (notes.table, notes.hand - 2)
        if stale in self.pending:
            self._check(stale)

    def flush(self) -> None:
        for key in list(self.pending):
            self._check(key)

    def _check(self, key: tuple[str, int]) -> None:
        bucket = self.pending.pop(key, [])
        self.checked += 1
        table, hand = key
        where = f"table {table} hand {hand}"
        dealt: dict[int, tuple[str, ...]] = {}
        final: dict[int, tuple[str, ...]] = {}
        """Five-card draw: each seat's cards after its draw (as its own bot saw them)."""
        for notes in bucket:
            if notes.seat is not None and notes.seat in notes.holes:
                dealt[notes.seat] = notes.holes[notes.seat]
            if notes.seat is not None and notes.drawn.get(notes.seat):
                final[notes.seat] = notes.drawn[notes.seat]
        for notes in bucket:
            self._check_cards_seen(notes, {**dealt, **final}, where)
        longest = self._check_boards(bucket, where)
        self._check_distinct([c for cards in dealt.values() for c in cards] + list(longest), where)
        if final:
            held = {**dealt, **final}
            self._check_distinct([c for cards in held.values() for c in cards], where)

    def _check_distinct(self, cards: list[str], where: str) -> None:
        seen: set[str] = set()
        for card in cards:
            if card in seen:
                self.report("duplicate_card", f"{where}: {card} dealt twice")
            seen.add(card)

    def _check_cards_seen(
        self, notes: HandNotes, dealt: dict[int, tuple[str, ...]], where: str
    ) -> None:
        """One bot saw only its own hole cards, and the cards shown are the ones dealt."""
        for seat, cards in [*notes.holes.items(), *notes.drawn.items()]:
            if seat != notes.seat and cards:
                self.report("hole_leak", f"{where}: seat {notes.seat} saw seat {seat}'s cards")
        for seat, cards in notes.shown.items():
            owner = dealt.get(seat)
            if owner is not None and tuple(sorted(cards)) != tuple(sorted(owner)):
                self.report("shown", f"{where}: seat {seat} shown {cards}, dealt {owner}")

    def _check_boards(self, bucket: list[HandNotes], where: str) -> tuple[str, ...]:
        """Every bot saw the same board (or the start of it); returns the longest."""
        boards = {tuple(n.board) for n in bucket if n.board}
        longest = max(boards, key=len, default=())
        for board in boards:
            if tuple(longest[: len(board)]) != board:
                self.report("board", f"{where}: bots saw different boards {sorted(boards)}")
                break
        return longest
