"""What a directed (tournament) table reports when a hand ends: one typed report.

The table produces it; the tournament side (:mod:`server.tournament`) reads it. The table knows
only its own string id, so :attr:`HandEnded.table_id` (the director's table number) is filled
by the host that runs the table (:meth:`HandEnded.numbered`) before the report goes to the
director. :meth:`HandEnded.to_json` / :meth:`HandEnded.from_json` carry it across processes
(the Redis coordinator's report stream, msgpack): plain lists, string seat keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from server.engine.positions import Positions, positions_from_list, positions_to_list

__all__ = ["Bust", "HandEnded"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Bust:
    """A player who lost all his chips in the hand."""

    player_id: str
    seat: int
    start_stack: int
    """His stack when the hand started (cdc 1.10: simultaneous busts are ranked by it)."""
    eliminated_by: tuple[str, ...] = ()
    """Winner(s) of the pot(s) that took his last chips (bounties)."""

    def to_json(self) -> list[Any]:
        return [self.player_id, self.seat, self.start_stack, list(self.eliminated_by)]

    @classmethod
    def from_json(cls, data: list[Any] | tuple[Any, ...]) -> Bust:
        player, seat, start, by = data
        return cls(
            player_id=str(player),
            seat=int(seat),
            start_stack=int(start),
            eliminated_by=tuple(str(p) for p in by),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEnded:
    """A table's report at the end of a hand (pot awarded, or the hand called off)."""

    table_id: int | None = None
    """The director's number of the table; None as the table itself reports it (the host
    fills it in, :meth:`numbered`). The director refuses a report without it."""
    hand_no: int
    positions: Positions
    """Button, small blind slot and big blind of the hand just played."""
    stacks: Mapping[int, tuple[str, int]]
    """Seat -> (player, stack) for every player still holding chips at the table (dealt in
    or not)."""
    busts: tuple[Bust, ...] = ()
    """The players who lost their last chips in the hand, best ranked first (cdc 1.10: the
    bigger start-of-hand stack ranks better)."""
    cancelled: bool = False
    """The hand was called off with every bet returned (cdc 5.4: a crash): the next deal at
    this table replays it at the same positions."""

    def numbered(self, table_id: int) -> HandEnded:
        """The same report with the director's table number."""
        return replace(self, table_id=table_id)

    def to_json(self) -> dict[str, Any]:
        """Plain values (msgpack / JSON): seats as string keys, tuples as lists."""
        p = self.positions
        return {
            "table": self.table_id,
            "hand": self.hand_no,
            "positions": positions_to_list(p),
            "stacks": {str(seat): [pid, stack] for seat, (pid, stack) in self.stacks.items()},
            "busts": [b.to_json() for b in self.busts],
            "cancelled": self.cancelled,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandEnded:
        """The report of :meth:`to_json` (seat keys may be strings or integers)."""
        table = data.get("table")
        return cls(
            table_id=None if table is None else int(table),
            hand_no=int(data["hand"]),
            positions=positions_from_list(data["positions"]),
            stacks={int(s): (str(v[0]), int(v[1])) for s, v in data["stacks"].items()},
            busts=tuple(Bust.from_json(b) for b in data.get("busts") or ()),
            cancelled=bool(data.get("cancelled")),
        )
