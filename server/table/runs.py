"""Running the board several times at a table (fpc multi-bordes; run it twice by agreement).

The engine decides when a hand is run several times and deals the runs (:mod:`server.engine.runs`);
this module is the table's part of it (pure, like the rest of the table):

- what a hand is set up with: how many runs the table allows and whether the two players must
  agree (:func:`run_terms`), with the runs' cards from the committed deck;
- the wait for the agreement: the action clock runs on it, and at its end whoever did not
  answer refused (:func:`runs_expired`); a player answers with ``run_it`` (:func:`agree`);
- what the wire shows of the runs: each run's streets as ``board`` events with their ``run``,
  each run's part of a pot as a ``pot`` event with its ``run``.

A cash table takes its runs from its rules (fpc: 3 without asking; a host's ``run_it`` of 2
or 3: by agreement); a friends table from its ``run_it`` setting (by agreement); tournament
tables deal one run.
"""

from __future__ import annotations

from typing import Protocol

from protocol.errors import ErrorCode, ProtocolError
from server.engine import Hand, Phase
from server.engine import events as ev
from server.engine.commands import AgreeRuns
from server.table.config import TableConfig
from server.table.phases import TablePhase
from server.table.seats import SeatState, Timers

__all__ = ["RunTable", "RunTerms", "agree", "run_terms", "runs_expired", "runs_offered"]


class _Directed(Protocol):
    @property
    def directed(self) -> bool: ...


class RunTerms(Protocol):
    """What :func:`run_terms` reads of a table (a cash table's ``cash``, if it has one, is
    read as an optional attribute)."""

    @property
    def config(self) -> TableConfig: ...
    @property
    def policy(self) -> _Directed: ...


class RunTable(Protocol):
    """What the wait for the runs' agreement asks of the table playing the hand (the table
    satisfies it; this module never imports it)."""

    @property
    def config(self) -> TableConfig: ...
    @property
    def timers(self) -> Timers: ...
    @property
    def hand_no(self) -> int: ...
    @property
    def hand(self) -> Hand | None: ...
    @property
    def phase(self) -> TablePhase: ...
    def after_engine(self, now: float, events: list[ev.Event]) -> None:
        """Carry out the engine's events of the hand (table events, clocks, the hand's end)."""


def run_terms(t: RunTerms) -> tuple[int, bool]:
    """``(runs, agreed)`` for the next hand: the most runs it may be dealt, and whether the
    two players all-in must both agree (a friends table's option) or not (fpc cash)."""
    cash = getattr(t, "cash", None)
    rules = getattr(cash, "rules", None)
    if rules is None:  # a friends table's option, always by agreement; tournaments: 1
        runs = 1 if t.policy.directed else t.config.run_it
        return (runs, True) if runs > 1 else (1, False)
    runs = int(getattr(rules, "runs", 1))
    if runs <= 1:
        return 1, False
    return runs, getattr(rules, "profile", "") != "fpc"


def runs_offered(t: RunTable, now: float, hand: Hand) -> bool:
    """The hand waits for the players' agreement (``Phase.RUNS``): the action clock times the
    wait (no player to act; the time bank does not apply). True while it waits."""
    if hand.phase is not Phase.RUNS:
        return False
    if t.timers.action is None:
        t.timers.acting = -1
        t.timers.action = now + t.config.action_seconds
        t.timers.action_started = now
    return True


def runs_expired(t: RunTable, now: float, hand: Hand) -> bool:
    """The wait's clock ended: whoever did not answer refused, one run. False when the hand
    does not wait for runs (the action clock is a player's)."""
    if hand.phase is not Phase.RUNS:
        return False
    t.timers.action = None
    t.after_engine(now, hand.runs_timeout())
    return True


def agree(t: RunTable, now: float, state: SeatState, hand_no: int, runs: int) -> None:
    """A player's answer (``run_it``): how many runs he agrees to (1: he refuses)."""
    if hand_no != t.hand_no:
        raise ProtocolError(ErrorCode.STALE_HAND, f"hand {hand_no} is not being played")
    hand = t.hand
    if hand is None or t.phase is not TablePhase.BETTING:
        raise ProtocolError(ErrorCode.STALE_HAND, "no hand waits for runs")
    events = hand.agree_runs(AgreeRuns(player=str(state.seat), runs=runs))
    if hand.phase is not Phase.RUNS:
        t.timers.action = None
    t.after_engine(now, events)
