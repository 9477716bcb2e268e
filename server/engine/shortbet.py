"""Chips pushed silently below the big blind with no bet to face, under ligue 6 (intro).

« Lorsqu'un joueur avance des jetons un montant inférieur au Big Blind ou de la mise sans
annoncer son intention, il doit égaliser le big blind ou la mise, ou le joueur peut folder ses
cartes mais les jetons restent dans le pot. » Facing a bet this is ``undersized_chip`` commit
(call or fold, :meth:`~server.engine.interpret.Interpreter._call_or_fold_only`). With no bet to
face (``silent_underbet`` commit) the chips go in (``Kind.PEND_BET``) and the player's next
gesture either brings his bet up to the big blind — a full bet of the big blind, or all-in
for less — or folds, the chips staying in the pot as dead money. Pure: reads amounts only.
"""

from __future__ import annotations

from dataclasses import dataclass

from .commands import Say, Verb
from .decision import Decision, Kind
from .errors import ErrorCode, RuleError

__all__ = ["ShortBet", "answer_short_bet", "commit_short_bet"]


@dataclass(frozen=True, slots=True)
class ShortBet:
    """A player with ``committed`` in front of him in a round nobody has bet, ``allin_to`` at
    most, and the big blind ``bb``."""

    committed: int
    allin_to: int
    bb: int

    @property
    def target(self) -> int:
        """The only bet left to him: the big blind, or all-in for less (ligue 6 intro)."""
        return min(self.bb, self.allin_to)


def commit_short_bet(pushed: int, short: ShortBet, rule: str) -> Decision:
    """The chips pushed go in; a bet of the big blind or a fold is awaited."""
    return Decision(
        Kind.PEND_BET,
        to=short.committed + pushed,
        rule=rule,
        note=f"{pushed} in chips below the big blind is committed: bet {short.target} or fold",
    )


def answer_short_bet(
    short: ShortBet, say: Say | None, said_to: int | None, pushed: int, rule: str
) -> Decision:
    """The gesture after a short bet was committed: a fold (the chips stay in the pot), or the
    bet brought up to the big blind. Whatever else puts chips in — "call", "bet", "raise",
    "all-in", an amount (``said_to``, the total it stands for), more chips (``pushed``) — can
    only be that bet; "check" is refused."""
    target = short.target
    if say is not None:
        if say.verb is Verb.FOLD:
            return Decision(
                Kind.FOLD, rule=rule, note="fold: the chips below the big blind stay in the pot"
            )
        if say.verb is Verb.CHECK:
            raise RuleError(
                ErrorCode.DECLARATION_BINDS,
                f"chips below the big blind are in: bet {target} or fold",
                rule,
            )
    return Decision(Kind.RAISE, to=target, rule=rule, note=_note(short, say, said_to, pushed))


def _note(short: ShortBet, say: Say | None, said_to: int | None, pushed: int) -> str:
    target = short.target
    note = f"bet brought up to {target}"
    if target < short.bb:
        note += " (all-in, less than the big blind)"
    owed = target - short.committed
    if say is not None and say.verb is Verb.ALLIN and short.allin_to > target:
        return f"{note}: all-in can only be the bet of {target}"
    if said_to is not None and said_to != target:
        return f"{note}: {said_to} said, the only bet is {target}"
    if pushed > owed:
        return f"{note}, change {pushed - owed} returned"
    return note
