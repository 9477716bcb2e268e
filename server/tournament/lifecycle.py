"""The tournament's phases and every allowed transition, in one table (h11 ``_state.py`` style).

A missing ``(phase, event)`` entry is a :class:`~server.tournament.errors.PhaseError`.
"""

from __future__ import annotations

from enum import StrEnum

from .errors import PhaseError

__all__ = ["TRANSITIONS", "Phase", "PhaseEvent", "transition"]


class Phase(StrEnum):
    REGISTERING = "registering"
    """Registration before the start; nobody is seated."""
    RUNNING = "running"
    """Several tables deal independently; balancing and breaking apply."""
    BREAK = "break"
    """A scheduled break: tables finish their hand and wait."""
    HAND_FOR_HAND = "hand_for_hand"
    """One elimination from the money or the final table: every table deals together (cdc 2.7)."""
    FINAL_TABLE = "final_table"
    """One table left, drawn at random (cdc 2.6, tda 11)."""
    FINISHED = "finished"


class PhaseEvent(StrEnum):
    START = "start"
    START_ONE_TABLE = "start_one_table"
    BREAK = "break"
    RESUME = "resume"
    RESUME_HAND_FOR_HAND = "resume_hand_for_hand"
    RESUME_FINAL = "resume_final"
    HAND_FOR_HAND_ON = "hand_for_hand_on"
    HAND_FOR_HAND_OFF = "hand_for_hand_off"
    FINAL_TABLE = "final_table"
    TABLE_ADDED = "table_added"
    """Late registration opened a second table while one was playing."""
    WIN = "win"


P, E = Phase, PhaseEvent

TRANSITIONS: dict[tuple[Phase, PhaseEvent], Phase] = {
    (P.REGISTERING, E.START): P.RUNNING,
    (P.REGISTERING, E.START_ONE_TABLE): P.FINAL_TABLE,
    (P.RUNNING, E.BREAK): P.BREAK,
    (P.RUNNING, E.HAND_FOR_HAND_ON): P.HAND_FOR_HAND,
    (P.RUNNING, E.FINAL_TABLE): P.FINAL_TABLE,
    (P.RUNNING, E.WIN): P.FINISHED,
    (P.RUNNING, E.TABLE_ADDED): P.RUNNING,
    (P.HAND_FOR_HAND, E.HAND_FOR_HAND_OFF): P.RUNNING,
    (P.HAND_FOR_HAND, E.BREAK): P.BREAK,
    (P.HAND_FOR_HAND, E.FINAL_TABLE): P.FINAL_TABLE,
    (P.HAND_FOR_HAND, E.WIN): P.FINISHED,
    (P.BREAK, E.RESUME): P.RUNNING,
    (P.BREAK, E.RESUME_HAND_FOR_HAND): P.HAND_FOR_HAND,
    (P.BREAK, E.RESUME_FINAL): P.FINAL_TABLE,
    (P.BREAK, E.HAND_FOR_HAND_ON): P.BREAK,
    (P.BREAK, E.HAND_FOR_HAND_OFF): P.BREAK,
    (P.BREAK, E.FINAL_TABLE): P.BREAK,
    (P.BREAK, E.TABLE_ADDED): P.BREAK,
    (P.BREAK, E.WIN): P.FINISHED,
    (P.FINAL_TABLE, E.BREAK): P.BREAK,
    (P.FINAL_TABLE, E.TABLE_ADDED): P.RUNNING,
    (P.FINAL_TABLE, E.WIN): P.FINISHED,
}


def transition(phase: Phase, event: PhaseEvent) -> Phase:
    try:
        return TRANSITIONS[phase, event]
    except KeyError:
        raise PhaseError(f"{event} is not possible while {phase}") from None
