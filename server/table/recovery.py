"""A table back from its last snapshot after a restart or a takeover (pure).

At the last completed hand; a hand cut by a crash is cancelled with every bet returned and
replayed at the same positions (cdc 5.4): the cancellation, its snapshot and the freed seats go
out as one write (Outbox.flush).
"""

from __future__ import annotations

from typing import Any, Protocol

from server.engine.positions import Positions, positions_from_list
from server.table.events import HandEnd
from server.table.policy import DealingTable
from server.table.seats import SeatState

__all__ = ["RestoredTable", "restore"]


class RestoredTable(DealingTable, Protocol):
    """What a restore sets on the table besides its seats (the table satisfies it; this
    module never imports it)."""

    hand_no: int
    paused: bool
    positions: Positions | None
    cancelled_hand: bool

    def in_hand(self) -> bool: ...


def _restore_seats(t: RestoredTable, data: dict[str, Any]) -> None:
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
            leaving=bool(entry.get("leaving", False)),
        )
        state.bank_at_start = state.time_bank
        state.unclaimed = state.new and not t.policy.directed
        t.seats[state.seat] = state


def restore(t: RestoredTable, data: dict[str, Any], record: dict[str, Any] | None) -> None:
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
    replay_dealt_in = data.get("replay_dealt_in")
    t.replay_dealt_in = [int(s) for s in replay_dealt_in] if replay_dealt_in else None
    t.cancelled_hand = bool(data.get("cancelled"))
    if not data.get("in_hand", True):
        _release_leavers(t)
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
    # cdc 5.4: the cut hand is dealt again as that hand (its positions, its players, the
    # stacks of its start) if they are all still there, else a fresh hand by the rules
    # (server.table.policy.take_replay): never a mix of the two
    t.replay_positions = t.positions
    dealt_in = data.get("dealt_in") or []
    t.replay_dealt_in = [int(s) for s in dealt_in] or None
    if not t.cancelled_hand:
        t.cancelled_hand = True
        stacks = tuple((s.seat, s.stack) for s in t.seats.values())
        t.out.emit([HandEnd(hand=t.hand_no, stacks=stacks, record="", cancelled=True)])
    _release_leavers(t)
    t.out.save_snapshot()


def _release_leavers(t: RestoredTable) -> None:
    """A player who left during the cut hand leaves now, with his stack of its start (a
    cash table's ledger pays it out), in the restore's one write: neither his leave nor his
    chips are forgotten (issue 27)."""
    leavers = [s for s in t.seats.values() if s.leaving]
    for state in leavers:
        del t.seats[state.seat]
        state.leaving = False
        t.seat_event(state, "left")
        t.policy.on_left(t, state, t.now)
    if leavers and t.replay_dealt_in is not None:
        t.replay_dealt_in = None  # the cut hand cannot be dealt again without them
        t.replay_positions = None
    if leavers and not t.in_hand():
        t.out.save_snapshot()
