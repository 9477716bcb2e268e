"""A table back from its last snapshot after a restart or a takeover (pure).

At the last completed hand; a hand cut by a crash is cancelled with every bet returned and
replayed at the same positions (cdc 5.4): the cancellation, its snapshot and the freed seats go
out as one write (Outbox.flush).
"""

from __future__ import annotations

from typing import Any

from server.engine.positions import Positions, positions_from_list
from server.table.events import HandEnd
from server.table.play import Play
from server.table.seats import SeatState

__all__ = ["restore"]


def _restore_seats(t: Play, data: dict[str, Any]) -> None:
    for entry in data["seats"]:
        state = SeatState(
            seat=entry["seat"],
            player=entry["pid"],
            name=entry["name"],
            stack=entry["stack"],
            time_bank=entry["time_bank"],
            new=entry["new"],
            sitting_out=entry["sitting_out"],
            waits_for_button=bool(entry.get("waits", False)),
            dead_hands=int(entry.get("dead_hands", 0)),
            returning=bool(entry.get("returning", False)),
        )
        state.bank_at_start = state.time_bank
        state.unclaimed = state.new and not t.policy.directed
        t.seats[state.seat] = state


def restore(t: Play, data: dict[str, Any], record: dict[str, Any] | None) -> None:
    """Come back from the last snapshot after a restart, at the last completed hand. A
    hand cut by a crash is cancelled with every bet returned and replayed (cdc 5.4): the
    cancellation, its snapshot and the freed seats are one write (see flush)."""
    t.hand_no = int(data["hand"])
    _restore_seats(t, data)
    cash = getattr(t, "cash", None)
    t.paused = bool(data.get("paused", False))
    if cash is not None and "cash" in data:
        cash.load(data["cash"])  # the ledger saved with these stacks

    def pos(value: list[int] | None) -> Positions | None:
        if not value:
            return None
        return positions_from_list(value)

    t.positions = pos(data.get("positions"))
    t.replay_positions = pos(data.get("replay"))
    t.cancelled_hand = bool(data.get("cancelled"))
    if not data.get("in_hand", True):
        return
    if record is not None:  # written by an older server: the hand had ended
        for seat, stack in record["final_stacks"].items():
            held = t.seats.get(int(seat))
            if held is not None:
                held.stack = stack
                if stack == 0:
                    del t.seats[int(seat)]
        t.out.save_snapshot()
        return
    t.replay_positions = t.positions
    if not t.cancelled_hand:
        t.cancelled_hand = True
        stacks = tuple((s.seat, s.stack) for s in t.seats.values())
        t.out.emit([HandEnd(hand=t.hand_no, stacks=stacks, record="", cancelled=True)])
    t.out.save_snapshot()
