"""The ledger of a cash table: every chip that came to the table or left it, per player.

What friends settle after the night and what a club writes on its « feuille de marque »
(fpc cash: « le joueur indique sur la feuille de marque le montant de la cave prise »). Every
buy-in, rebuy, cash-out and stack returned by the host is one :class:`Entry`; the rake is
kept as one running total (a line per hand would make every saved snapshot grow with the
table's life), written as one ``rake`` line in the CSV. The ledger balances to the chip at
any moment between hands: bought in − cashed out − rake = the chips on the table
(:meth:`Ledger.imbalance`). Pure: times are given.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["Entry", "Ledger", "Move", "Totals"]


class Move(StrEnum):
    """What one ledger line records."""

    BUY_IN = "buy_in"
    """A first buy-in at this table (chips to the table)."""
    REBUY = "rebuy"
    """Chips for a seated player who lost his whole stack (chips to the table)."""
    TOP_UP = "top_up"
    """Chips added to a stack that is not empty (casino: announced, within the maximum)."""
    CASH_OUT = "cash_out"
    """A player leaves with his whole stack (chips from the table)."""
    REMOVED = "removed"
    """The host removed a player: his stack is returned to him (chips from the table)."""
    MOVED_IN = "moved_in"
    """He came from another table of the room with his stack (a table change, balancing, a
    merge): chips to this table, not a purchase (no session cap, no capital moves)."""
    MOVED_OUT = "moved_out"
    """He went to another table of the room with his stack (chips from this table)."""
    RAKE = "rake"
    """The house's total from the hands' pots (casino « la taille »): the CSV's last line."""


PURCHASES = frozenset({Move.BUY_IN, Move.REBUY, Move.TOP_UP})
IN = PURCHASES | {Move.MOVED_IN}
OUT = frozenset({Move.CASH_OUT, Move.REMOVED, Move.MOVED_OUT})


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    at: float
    """When (seconds since the epoch)."""
    move: Move
    player: str
    """The player's id ("" for the rake)."""
    name: str
    amount: int
    hand: int = 0
    """The last hand dealt when it happened (the hand a rake comes from)."""
    by: str = ""
    """Who decided it when it was not the player (the host's name)."""
    other: str = ""
    """The other table of a move (``moved_in``: where from; ``moved_out``: where to)."""
    hold: str = ""
    """The season capital's reservation a purchase spent (a league's cash season: the
    capital learns from this line that the reservation is recorded); "" for none."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Totals:
    """One player's figures for the session."""

    player: str
    name: str
    bought: int
    cashed: int

    @property
    def net(self) -> int:
        """Cashed out minus bought in (what the player won; negative: lost). A player still
        seated has not cashed out yet: read it with his stack."""
        return self.cashed - self.bought


@dataclass(slots=True)
class Ledger:
    entries: list[Entry] = field(default_factory=list)
    raked: int = 0
    """The rake of every hand, in all."""
    last_rake: tuple[float, int] = (0.0, 0)
    """When the last rake was taken, and from which hand."""
    _read: int = field(default=0, compare=False, repr=False)
    """How many entries :attr:`_moves` and :attr:`_holds` have added up (entries are only
    ever appended: each is read once, never the whole list again)."""
    _moves: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)
    _holds: set[str] = field(default_factory=set, compare=False, repr=False)

    def _catch_up(self) -> None:
        for entry in self.entries[self._read :]:
            brought, taken = self._moves.get(entry.player, (0, 0))
            if entry.move in IN:
                brought += entry.amount
            else:
                taken += entry.amount
            self._moves[entry.player] = (brought, taken)
            if entry.hold:
                self._holds.add(entry.hold)
        self._read = len(self.entries)

    def moves(self, player: str) -> tuple[int, int]:
        """What ``player`` brought to this table (bought, moved in) and took from it
        (cashed out, returned, moved out), in all: a season capital's account of it."""
        self._catch_up()
        return self._moves.get(player, (0, 0))

    def recorded(self, hold: str) -> bool:
        """Whether a purchase spending the capital's reservation ``hold`` is written here."""
        self._catch_up()
        return hold in self._holds

    def take_rake(self, amount: int, at: float, hand: int) -> None:
        if amount < 0:
            raise ValueError("a rake is not negative")
        if amount:
            self.raked += amount
            self.last_rake = (at, hand)

    def add(self, entry: Entry) -> Entry:
        if entry.amount < 0 or (entry.amount == 0 and entry.move in IN):
            raise ValueError(f"a ledger amount must be positive: {entry}")
        self.entries.append(entry)
        return entry

    def totals(self) -> list[Totals]:
        """Per player, in order of first appearance."""
        names: dict[str, str] = {}
        bought: dict[str, int] = {}
        cashed: dict[str, int] = {}
        for e in self.entries:
            names[e.player] = e.name
            if e.move in IN:
                bought[e.player] = bought.get(e.player, 0) + e.amount
            else:
                cashed[e.player] = cashed.get(e.player, 0) + e.amount
        return [
            Totals(player=p, name=n, bought=bought.get(p, 0), cashed=cashed.get(p, 0))
            for p, n in names.items()
        ]

    def bought(self, player: str, since: float = float("-inf")) -> int:
        """What ``player`` bought at this table (chips moved in from another table are not
        bought: fpc's cap per session counts buy-ins)."""
        return sum(
            e.amount
            for e in self.entries
            if e.player == player and e.move in PURCHASES and e.at >= since
        )

    def rake(self) -> int:
        return self.raked

    def imbalance(self, stacks: Iterable[int]) -> int:
        """Bought in − cashed out − rake − the chips on the table: 0 when every chip is
        accounted for (the table checks it after every hand; anything else is a bug)."""
        total_in = sum(e.amount for e in self.entries if e.move in IN)
        total_out = sum(e.amount for e in self.entries if e.move in OUT)
        return total_in - total_out - self.rake() - sum(stacks)

    def csv(self, stacks: Mapping[str, int] | None = None) -> str:
        """Every line, then one line per player (bought, cashed out, on the table, net)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["at", "move", "player", "name", "amount", "hand", "by", "table"])
        for e in self.entries:
            writer.writerow(
                [f"{e.at:.3f}", e.move.value, e.player, e.name, e.amount, e.hand, e.by, e.other]
            )
        if self.raked:
            at, hand = self.last_rake
            writer.writerow([f"{at:.3f}", Move.RAKE.value, "", "", self.raked, hand, "", ""])
        writer.writerow([])
        writer.writerow(["player", "name", "bought", "cashed_out", "on_table", "net"])
        for t in self.totals():
            on_table = (stacks or {}).get(t.player, 0)
            writer.writerow([t.player, t.name, t.bought, t.cashed, on_table, t.net + on_table])
        return out.getvalue()

    def closed(self, seats: Iterable[tuple[str, str, int]], at: float, hand: int) -> Ledger:
        """This ledger as the table closes for good: every stack still on it, given as
        ``(player, name, stack)``, written cashed out to its player ``by`` ``closed`` (a
        table dropped with chips on it loses none of them: the archive says whose they are)."""
        entries = list(self.entries)
        for player, name, stack in seats:
            if stack > 0:
                entries.append(
                    Entry(
                        at=at,
                        move=Move.CASH_OUT,
                        player=player,
                        name=name,
                        amount=stack,
                        hand=hand,
                        by="closed",
                    )
                )
        return Ledger(entries, self.raked, self.last_rake)

    def to_json(self) -> dict[str, Any]:
        return {
            "entries": [_entry_json(e) for e in self.entries],
            "raked": self.raked,
            "last_rake": list(self.last_rake),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ledger:
        entries = [Entry(**{**e, "move": Move(e["move"])}) for e in data["entries"]]
        at, hand = data.get("last_rake", (0.0, 0))
        return cls(entries, int(data.get("raked", 0)), (float(at), int(hand)))


def _entry_json(entry: Entry) -> dict[str, Any]:
    """An entry as saved (``hold`` only where there is one: older snapshots and the tables
    outside a season read the same)."""
    data = asdict(entry)
    if not entry.hold:
        del data["hold"]
    return data
