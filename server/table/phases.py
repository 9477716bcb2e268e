"""A table's phases and every allowed transition, in one event-keyed table (STYLE.md 2, the
h11 ``_state.py`` model): ``TRANSITIONS[phase][trigger]`` is the next phase, and a missing
entry is a precise error (:class:`BadTransition`), never a silent change."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["TRANSITIONS", "BadTransition", "TablePhase", "Trigger", "next_phase"]


class TablePhase(StrEnum):
    WAITING = "waiting"
    """Fewer players present than needed to deal (friends tables)."""
    AWAITING_DIRECTOR = "awaiting_director"
    """A director-driven table asked for its next deal and waits for it (a level change,
    balancing, a break, the hand-for-hand barrier)."""
    CUT = "cut"
    """The deck is committed; waiting for the cut from the player on the dealer's right."""
    BETTING = "betting"
    HELD = "held"
    """Hand-for-hand: an all-in hand stays face down until every table has finished its
    hand (cdc 2.7); the director reveals it."""
    SHOWDOWN = "showdown"
    BETWEEN = "between"
    """The pot was awarded; the next hand starts after a short pause (cdc 3.1)."""
    HALTED = "halted"
    """A store write failed: nothing goes out, the same write is retried with backoff, and
    the table goes on where it stopped once it succeeds."""
    CLOSED = "closed"


class Trigger(StrEnum):
    NOT_ENOUGH = "not_enough"
    """Too few players present to deal."""
    ASK_DIRECTOR = "ask_director"
    DEAL = "deal"
    """A hand is opened: the deck committed, the cut awaited."""
    CUT = "cut"
    """The cut is made, the cards dealt: betting starts."""
    CALLED_OFF = "called_off"
    """Everyone (or all but one) left before the deal: nothing was posted (cdc 2.2)."""
    HOLD = "hold"
    RELEASE = "release"
    SHOWDOWN = "showdown"
    HAND_END = "hand_end"
    STORE_FAILED = "store_failed"
    CLOSE = "close"


_P, _T = TablePhase, Trigger

TRANSITIONS: dict[TablePhase, dict[Trigger, TablePhase]] = {
    _P.WAITING: {
        _T.DEAL: _P.CUT,
        _T.ASK_DIRECTOR: _P.AWAITING_DIRECTOR,
        _T.NOT_ENOUGH: _P.WAITING,
    },
    _P.AWAITING_DIRECTOR: {_T.DEAL: _P.CUT, _T.ASK_DIRECTOR: _P.AWAITING_DIRECTOR},
    _P.CUT: {_T.CUT: _P.BETTING, _T.CALLED_OFF: _P.BETWEEN},
    _P.BETTING: {
        _T.HOLD: _P.HELD,
        _T.SHOWDOWN: _P.SHOWDOWN,
        _T.HAND_END: _P.BETWEEN,
    },
    _P.HELD: {_T.RELEASE: _P.BETTING},
    _P.SHOWDOWN: {_T.HAND_END: _P.BETWEEN},
    _P.BETWEEN: {
        _T.DEAL: _P.CUT,
        _T.NOT_ENOUGH: _P.WAITING,
        _T.ASK_DIRECTOR: _P.AWAITING_DIRECTOR,
    },
    _P.HALTED: {},
    _P.CLOSED: {},
}
"""Every phase can also be closed, and every phase but CLOSED can halt on a store failure
(then it resumes to the phase it had): see :func:`next_phase`."""


class BadTransition(RuntimeError):
    """A transition the table does not allow (a bug: the table refuses to make it)."""


def next_phase(phase: TablePhase, trigger: Trigger) -> TablePhase:
    if trigger is Trigger.CLOSE:
        return TablePhase.CLOSED
    if trigger is Trigger.STORE_FAILED and phase is not TablePhase.CLOSED:
        return TablePhase.HALTED
    try:
        return TRANSITIONS[phase][trigger]
    except KeyError:
        raise BadTransition(f"{phase} --{trigger}--> ? is not a transition") from None
