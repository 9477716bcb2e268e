"""The state of one hand, shared by the parts of :class:`~server.engine.hand.Hand`.

:class:`HandState` only declares what :class:`~server.engine.hand.Hand` sets up (the players'
chips, the betting round, the cards) and the few queries every part uses. Three layers stand
on it in one line, each calling only itself and the layers below: the showdown and the award
(:mod:`.showdown`), the betting, which hands over to it (:mod:`.betting`), and the hand
(:mod:`.hand`). The runs of the board (:mod:`.runs`), the showing and mucking
(:mod:`.showing`), the draw (:mod:`.draw`) and the interpretation of gestures
(:mod:`.interpret`) are parts owning their own state; the pots are pure functions
(:mod:`.pots`). Also the values a hand hands out: :class:`Phase`, :class:`Menu`,
:class:`PotView`, and :class:`Street` (from :mod:`.streets`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .draw import DrawRound
from .events import Event
from .interpret import OotRecord
from .profile import Profile
from .runs import BoardRuns
from .setup import HandSetup
from .showing import Showing
from .streets import STREET_NAMES, Street

__all__ = ["STREET_NAMES", "HandState", "Menu", "Phase", "PotView", "Street"]


class Phase(StrEnum):
    BETTING = "betting"
    SHOWDOWN = "showdown"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    RUNS = "runs"
    """Betting is over (two players in the pot, all-in, the turn not dealt) and the hand waits
    for both players to agree on running the board more than once (friends "run it twice",
    :mod:`.runs`): :meth:`~server.engine.hand.Hand.agree_runs` or
    :meth:`~server.engine.hand.Hand.runs_timeout` ends the wait."""
    DRAW = "draw"
    """Five-card draw: the first betting round is over and the players draw in turn
    (:meth:`~server.engine.hand.Hand.draw`, :mod:`.draw`); no betting input is taken."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Menu:
    """The legal choices of the player whose turn it is (built from the ``can`` checks)."""

    player: str
    call: int
    """Additional chips to call (0: check)."""
    can_check: bool
    can_fold: bool
    can_raise: bool
    min_raise_to: int | None
    max_raise_to: int | None
    pending: str | None
    """``"amount"`` while a declared raise awaits its amount, ``"call_or_fold"`` when the
    player may only call or fold (cdc 9.4, 9.12), else None. Also ``"call_or_fold"`` once
    chips pushed below the big blind with no bet to face are in (ligue 6 intro): the bet must
    be brought up to the big blind ("call" does it) or the hand folded; the menu then has
    ``call`` 0, no check, and one bet, ``min_raise_to == max_raise_to`` (the big blind, or
    all-in for less)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PotView:
    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...] = ()


class HandState:
    """What a hand holds (set by ``Hand.__init__``). Players are indices, in seat order."""

    setup: HandSetup
    profile: Profile
    bb: int
    open_fold_binding: bool
    denominations: tuple[int, ...]
    n: int
    names: list[str]
    seat_of: list[int]
    index: dict[str, int]
    start: list[int]
    stack: list[int]
    committed: list[int]
    """Chips put in during the current betting round."""
    contrib: list[int]
    """Chips put in during the whole hand (classic antes included)."""
    folded: list[bool]
    dead: list[bool]
    allin: list[bool]
    n_live: int
    n_able: int
    acted: list[bool]
    reopen_at: list[int]
    no_raise: list[bool]
    oot: dict[int, OotRecord]
    hole: list[tuple[int, ...]]
    board_cards: tuple[int, ...]
    board: list[int]
    street: Street
    last_street: Street
    """The last betting round: the river, or in five-card draw the round after the draw."""
    drawing: DrawRound | None
    """Five-card draw: the draw (:mod:`.draw`); None in hold'em."""
    pot_limit: bool
    """The betting structure is pot limit (else no limit)."""
    phase: Phase
    cb: int
    """The current bet of the round."""
    last_full_inc: int
    to_act: int
    round_aggressor: int
    river_bet: bool
    pending_raise: int
    pending_bet: int
    """The player whose chips below the big blind, pushed with no bet to face, await a bet of
    the big blind or a fold (ligue 6 intro), or -1."""
    last_motion: int
    dead_money: int
    _showing: Showing
    """Who shows and who mucks, and in what order (:mod:`.showing`)."""
    awarded: list[PotView]
    events: list[Event]
    unwinnable: list[int]
    button: int
    sb_i: int
    bb_i: int
    option_i: int
    """The player who posted the option (casino cash, the straddle), or -1."""
    after_button: list[int]
    _runs: BoardRuns
    """The runs of the board (:mod:`.runs`): how many, from which street."""

    def live(self) -> list[int]:
        return [i for i in range(self.n) if not self.folded[i]]
