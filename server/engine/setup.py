"""What a hand starts from: seats, stacks, blinds, button, profile and the dealt cards."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from .errors import SetupError
from .profile import Profile

__all__ = ["DEFAULT_DENOMINATIONS", "AnteFormat", "Blinds", "HandSetup", "SeatSetup"]

DEFAULT_DENOMINATIONS = (25, 100, 500, 1000, 5000, 25000)


class AnteFormat(StrEnum):
    """Who posts the ante (cdc 4.2, fpc 6)."""

    NONE = "none"
    """No ante."""
    CLASSIC = "classic"
    """Every player dealt in posts an ante, into the pot by contribution."""
    BUTTON = "button"
    """The button posts one ante for the table; dead money any all-in can win."""
    BIG_BLIND = "big_blind"
    """The big blind posts one ante for the table; dead money any all-in can win."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Blinds:
    sb: int
    bb: int
    ante: int = 0
    ante_format: AnteFormat = AnteFormat.NONE


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatSetup:
    player: str
    seat: int
    stack: int
    dead: bool = False
    """Dealt a dead hand (absent at the deal, or serving a penalty): posts, never acts."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandSetup:
    """Everything a hand needs. Cards are indices from :mod:`server.engine.cards`."""

    profile: Profile
    blinds: Blinds
    seats: tuple[SeatSetup, ...]
    button: int
    hole: Mapping[str, tuple[int, int]]
    board: tuple[int, ...]
    denominations: tuple[int, ...] = DEFAULT_DENOMINATIONS
    big_blind: int | None = None
    """Pins the big blind seat (dead-button hands)."""
    extra: Mapping[str, object] = field(default_factory=dict)

    def validate(self) -> None:
        """Raise :class:`SetupError` for an impossible set-up."""
        names, seat_numbers = self._validate_seats()
        b = self.blinds
        if b.bb <= 0 or b.sb < 0 or b.ante < 0:
            raise SetupError("blinds must be positive (sb may be 0)")
        if not self.denominations or any(d <= 0 for d in self.denominations):
            raise SetupError("denominations must be positive")
        self._validate_cards(names)
        if self.big_blind is not None and self.big_blind not in seat_numbers:
            raise SetupError("big_blind must be an occupied seat")

    def _validate_seats(self) -> tuple[list[str], list[int]]:
        """The players' names and seats, once checked."""
        if len(self.seats) < 2:
            raise SetupError("a hand needs at least two players")
        names = [s.player for s in self.seats]
        if len(set(names)) != len(names):
            raise SetupError("duplicate player name")
        seat_numbers = [s.seat for s in self.seats]
        if len(set(seat_numbers)) != len(seat_numbers):
            raise SetupError("two players in one seat")
        for s in self.seats:
            if s.stack <= 0:
                raise SetupError(f"player {s.player} has no chips")
        if all(s.dead for s in self.seats):
            raise SetupError("every hand would be dead: nobody to play")
        return names, seat_numbers

    def _validate_cards(self, names: list[str]) -> None:
        if set(self.hole) != set(names):
            raise SetupError("hole cards must be given for every player")
        cards = [c for pair in self.hole.values() for c in pair] + list(self.board)
        if len(self.board) != 5:
            raise SetupError("the board must hold five cards")
        if len(set(cards)) != len(cards) or any(not 0 <= c < 52 for c in cards):
            raise SetupError("duplicate or invalid card")
