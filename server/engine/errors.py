"""Rule errors raised by the engine. An illegal command raises and changes nothing.

Errors are split by whose fault they are (STYLE.md 5): :class:`RuleError` is the player's
(the command breaks a rule of the game); :class:`SetupError` is the caller's (an impossible
hand set-up). Each carries a stable :class:`ErrorCode` that is sent on the wire unchanged.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ErrorCode", "RuleError", "SetupError"]


class ErrorCode(StrEnum):
    """Stable codes for refused commands."""

    UNKNOWN_PLAYER = "unknown_player"
    """The command names a player who is not dealt in this hand."""
    HAND_OVER = "hand_over"
    """The hand is finished or cancelled; nothing more can be done in it."""
    NOT_BETTING = "not_betting"
    """A betting command arrived while the hand is not in a betting round."""
    NOT_IN_HAND = "not_in_hand"
    """The player has folded, is all-in, or holds a dead hand and cannot act."""
    PENDING_DECLARATION = "pending_declaration"
    """Another player announced a raise whose amount is still to come (cdc 9.3, tda 38-B)."""
    DECLARATION_BINDS = "declaration_binds"
    """The player's earlier declaration binds them; this command contradicts it (cdc 9.4)."""
    STRING_BET = "string_bet"
    """A second motion in the same turn: only the first motion counts (cdc 9.5, tda 51)."""
    RAISE_NOT_ALLOWED = "raise_not_allowed"
    """The player may only call or fold here (blocked raise, cdc 9.21 / tda 44, or cdc 9.4)."""
    FOLD_WHEN_CHECK = "fold_when_check"
    """Folding is not permitted while a check is possible under this profile (fpc 18-26)."""
    VOID_DECLARATION = "void_declaration"
    """The declaration has no meaning under this profile; the player must restate it."""
    BAD_CHIPS = "bad_chips"
    """Chip values that are not denominations in play, or more chips than the player has."""
    BAD_AMOUNT = "bad_amount"
    """An amount that is negative, zero where a bet is needed, or not a whole number."""
    BAD_VERB = "bad_verb"
    """A declaration verb or form the engine does not know."""
    NOT_SHOWDOWN = "not_showdown"
    """Show or muck outside the showdown (cdc 11.3: no showing mid-hand)."""
    NOT_YOUR_TURN_TO_SHOW = "not_your_turn_to_show"
    """Showdown follows an order (cdc 10.5, tda 16); it is someone else's turn to show."""
    MUST_SHOW = "must_show"
    """This hand may not be mucked: all-in (cdc 10.4, tda 15) or called on the river (tda 17-B)."""
    EMPTY_GESTURE = "empty_gesture"
    """The input carries neither a declaration nor chips."""
    RUNS_NOT_OFFERED = "runs_not_offered"
    """An answer to run the board several times while no runs are offered (only once two
    players are all-in before the turn at a table that asks them, :mod:`.runs`)."""
    OVER_POT_LIMIT = "over_pot_limit"
    """Pot limit: a bet or raise above the current bet plus the pot after the call."""
    NOT_DRAWING = "not_drawing"
    """A draw while no draw is in progress (a betting round, the showdown)."""
    NOT_YOUR_DRAW = "not_your_draw"
    """A draw by a player who is not the next to draw (the draw goes in turn from the
    button's left; out-of-turn rules do not apply to it)."""
    CARD_NOT_HELD = "card_not_held"
    """A discard names a card the player does not hold."""
    SAME_CARD_TWICE = "same_card_twice"
    """A discard names the same card twice."""
    TOO_MANY_DISCARDS = "too_many_discards"
    """A discard of more cards than the rules allow (``HandSetup.max_discard``)."""


class RuleError(Exception):
    """A command that breaks a rule. The hand is left exactly as it was."""

    def __init__(self, code: ErrorCode, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    def __repr__(self) -> str:
        return f"RuleError({self.code.value!r}, {self.message!r})"


class SetupError(ValueError):
    """An impossible hand set-up (unknown profile, duplicate card, empty table...)."""
