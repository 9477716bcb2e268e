"""The arithmetic of a raise short of the minimum: the 50 % rule ("fausse relance").

Pure functions over amounts (totals of the current betting round), used by the interpreter
for chips pushed silently (cdc 9.6, tda 43-A, ligue 6.10-c, fpc 18-16) and, under the
casino profile, for an announced raise too (casino/fausse-relance: « Si un joueur fait une
annonce constituant une fausse relance … »).
"""

from __future__ import annotations

from dataclasses import dataclass

from .decision import Decision, Kind

__all__ = ["ShortRaise", "half_reached", "judge_short_raise"]


@dataclass(frozen=True, slots=True)
class ShortRaise:
    """A raise to ``to`` below ``min_to`` by a player with ``committed`` in front of him and
    ``allin_to`` at most, facing a bet of ``cb``."""

    to: int
    cb: int
    committed: int
    min_to: int
    allin_to: int
    declared: bool = False
    """Announced ("raise 150") rather than pushed in chips: only worded differently."""


def half_reached(to: int, cb: int, min_to: int) -> bool:
    """At least half of the raise was put in: the shortfall ``min_to - to`` is at most 50 %
    of the complement ``min_to - cb`` (casino/fausse-relance: « inférieur ou égal à 50 % du
    complément à la relance réglementaire »; cdc 9.6, tda 43-A, fpc 18-16: « 50 % ou plus »)."""
    return 2 * (to - cb) >= min_to - cb


def judge_short_raise(short: ShortRaise, rule: str) -> Decision:
    """≥ 50 %: completed to the minimum, or all-in when the player has less; < 50 %: a call
    (a check if nothing is owed) and the excess goes back."""
    what = f"declared raise to {short.to}" if short.declared else str(short.to)
    if half_reached(short.to, short.cb, short.min_to):
        target = min(short.min_to, short.allin_to)
        return Decision(
            Kind.RAISE,
            to=target,
            rule=rule,
            note=f"{what} is at least half a raise: completed to {target}",
        )
    kind = Kind.CALL if short.cb > short.committed else Kind.CHECK
    back = "excess taken back" if short.declared else "change returned"
    return Decision(
        kind,
        rule=rule,
        note=f"{what} is less than half a raise: {kind.value}, {back}",
    )
