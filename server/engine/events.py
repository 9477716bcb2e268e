"""Events: what happened in a hand, as typed frozen dataclasses. The log is the history."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "Acted",
    "BoardDealt",
    "DeadHand",
    "Event",
    "FaceUp",
    "HandCancelled",
    "HandEnded",
    "HandStarted",
    "HoleDealt",
    "Mucked",
    "OutOfTurn",
    "Pending",
    "PostKind",
    "Posted",
    "PotAwarded",
    "Returned",
    "Shown",
]


class PostKind(StrEnum):
    ANTE = "ante"
    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"


@dataclass(frozen=True, slots=True, kw_only=True)
class HandStarted:
    button: int
    small_blind: str | None
    big_blind: str | None
    stacks: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Posted:
    player: str
    kind: PostKind
    amount: int
    allin: bool
    rule: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class DeadHand:
    """The player was dealt a dead hand (absent at the deal, penalty): posts, never acts."""

    player: str
    rule: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HoleDealt:
    """Private to ``player``."""

    player: str
    cards: tuple[int, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class Acted:
    """A betting action as the rules made it (``action`` is what the gesture became)."""

    player: str
    action: str
    to: int
    added: int
    allin: bool
    rule: str = ""
    note: str = ""
    out_of_turn: bool = False
    """Applied at once, before the player's turn (a fold out of turn, cdc 9.3, tda 40-A): it
    takes effect, and belongs in a hand history, where the turn reaches the player."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Pending:
    """The player's gesture was taken but their action is not complete (amount to follow,
    committed chip awaiting call or fold, check facing a bet...)."""

    player: str
    reason: str
    added: int
    rule: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class OutOfTurn:
    """An out-of-turn gesture was recorded, or later bound or released."""

    player: str
    status: str  # "recorded" | "bound" | "released" | "discarded"
    rule: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Returned:
    """Uncalled chips returned to their owner (not a pot)."""

    player: str
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardDealt:
    street: str
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class FaceUp:
    """All live hands turned face up: all-in and no more betting possible (cdc 10.4)."""

    hands: tuple[tuple[str, tuple[int, int]], ...]
    rule: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Shown:
    player: str
    cards: tuple[int, int]
    hand: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Mucked:
    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PotAwarded:
    index: int
    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]
    shares: tuple[tuple[str, int], ...]
    rule: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandEnded:
    stacks: tuple[tuple[str, int], ...]
    busted: tuple[tuple[str, int], ...]
    """Players left with no chips and their start-of-hand stacks, best ranked first (cdc 1.10)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandCancelled:
    """Every bet returned; the hand is replayed (cdc 5.4)."""

    stacks: tuple[tuple[str, int], ...]
    rule: str


Event = (
    HandStarted
    | Posted
    | DeadHand
    | HoleDealt
    | Acted
    | Pending
    | OutOfTurn
    | Returned
    | BoardDealt
    | FaceUp
    | Shown
    | Mucked
    | PotAwarded
    | HandEnded
    | HandCancelled
)
