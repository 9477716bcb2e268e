"""Errors that only say a bot's answer came too late (a race with the server's clock or the
game moving on, not a fault): the requests they may answer, and the rule that tells them
apart (:mod:`bots.client` counts them as late, never as errors)."""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol import messages as m

from .stats import Stats

__all__ = ["Requests"]


@dataclass(slots=True)
class Requests:
    """A bot's cuts and acts whose answer may still come back as an error."""

    cuts: set[int] = field(default_factory=set)
    """Request ids of our cuts."""
    acts: dict[int, int] = field(default_factory=dict)
    """Request id of each act -> the hand it was for."""

    def act(self, rid: int, hand: int) -> None:
        self.acts[rid] = hand
        if len(self.acts) > 256:
            for old in list(self.acts)[:128]:
                del self.acts[old]

    def late(self, error: m.Error, ended_hand: int, moved: bool, stats: Stats) -> bool:
        """``error`` only says our answer came too late: counted in ``stats``, True.
        ``ended_hand``: the last hand whose end we saw; ``moved``: we changed tables."""
        code = error.code
        if error.ref is not None and error.ref in self.cuts:
            self.cuts.discard(error.ref)
            if code == "not_your_turn":  # the cut came after the server's cut timer had fired
                stats.late_cuts += 1
                return True
        if len(self.cuts) > 8:
            self.cuts.clear()
        acted_in = self.acts.pop(error.ref, None) if error.ref is not None else None
        if acted_in is None:
            return False
        if code == "stale_hand" and acted_in <= ended_hand:
            stats.late_acts += 1  # the hand ended while we answered: a race, not a fault
            return True
        if code == "stale_decision":
            # the decision closed while we answered (the clock ran out, an opponent's fold
            # out of turn changed our options): the next turn, if ours, is a new one
            stats.late_acts += 1
            return True
        if code == "not_seated" and moved:
            stats.late_acts += 1  # we were moved to another table while answering
            return True
        return False
