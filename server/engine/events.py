"""Events: what happened in a hand, as typed frozen dataclasses. The log is the history."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "Acted",
    "BoardDealt",
    "DeadHand",
    "DrawDealt",
    "Drew",
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
    "RunDealt",
    "RunRanked",
    "RunsAnswered",
    "RunsChosen",
    "RunsOffered",
    "Shown",
    "StubReshuffled",
]


class PostKind(StrEnum):
    """What a player posted before the cards (the ``kind`` of :class:`Posted`)."""

    ANTE = "ante"
    """An ante (classic: his contribution; button or big blind ante: dead money)."""
    SMALL_BLIND = "small_blind"
    """The small blind: a live bet of the preflop round."""
    BIG_BLIND = "big_blind"
    """The big blind: the bet of the preflop round (cdc 9.7, even when short)."""
    SEAT_FEE = "seat_fee"
    """A live post of one big blind by a player entering the game or coming back (casino
    cash, « droit de siège »): his bet of the preflop round, he may check if nobody raised."""
    MISSED_BIG_BLIND = "missed_big_blind"
    """The big blind a player owes for missed blinds, posted on his return (casino cash,
    « miss blinds »: « sa grosse blind sera déposée devant sa case, comme un droit de siège
    et la petite blind sera mise directement dans le pot »): live like a seat fee, but his
    owed big blind, not a newcomer's seat fee (shared/specs/session-format.md: ``missed_bb``)."""
    OPTION = "option"
    """The option, the casino's straddle (casino cash: « L'option est autorisée en Cash
    Game »): a live blind of two big blinds posted by the first player left of the big blind
    after the blinds and seat fees; his bet of the preflop round, where he speaks last."""
    DEAD_BLIND = "dead_blind"
    """A missed small blind paid on coming back, straight into the pot (casino cash, « miss
    blinds »: « la petite blind sera mise directement dans le pot »): dead money, not his
    bet."""


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
    """Private to ``player``: his two hole cards (hold'em) or five cards (draw)."""

    player: str
    cards: tuple[int, ...]


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

    hands: tuple[tuple[str, tuple[int, ...]], ...]
    rule: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Shown:
    player: str
    cards: tuple[int, ...]
    hand: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Mucked:
    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PotAwarded:
    """One pot shared (main pot ``index`` 0, then the side pots): ``amount`` is the whole
    pot, the rake included."""

    index: int
    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]
    shares: tuple[tuple[str, int], ...]
    rule: str = ""
    rake: int = 0
    """Chips of ``amount`` the house retained before the pot was shared (casino cash, « la
    taille »): ``shares`` add up to ``amount - rake``."""
    run: int = 1
    """The run of the board this part of the pot was played on (fpc multi-bordes, run it
    twice: one event per run, ``amount`` that run's part, the pot's rake on run 1's part);
    1 for a hand dealt once."""


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


@dataclass(frozen=True, slots=True, kw_only=True)
class RunsOffered:
    """Two players all-in before the turn at a table that runs the board several times by
    agreement: the hand waits for both (``AgreeRuns``, up to ``most`` runs; :mod:`.runs`)."""

    players: tuple[str, ...]
    most: int
    street: str
    """The first street dealt once per run: ``"flop"`` or ``"turn"``."""
    rule: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunsAnswered:
    """One player's answer to :class:`RunsOffered` (``runs`` 1: he refused)."""

    player: str
    runs: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RunsChosen:
    """How many runs of the board are dealt from ``street`` on (fpc multi-bordes: 3 without
    asking; run it twice: what both players agreed, else 1)."""

    runs: int
    street: str
    rule: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunDealt:
    """One street of run ``run`` (2 or 3), dealt after run 1's river from fresh cards (fpc:
    « Les cartes des tirages précédents restent sur la table »); run 1's streets are
    :class:`BoardDealt`."""

    run: int
    street: str
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class RunRanked:
    """Every run dealt: the live hands ranked on run ``run``'s five cards."""

    run: int
    board: tuple[int, ...]
    hands: tuple[tuple[str, str], ...]
    """(player, hand name), e.g. ``("A", "Two Pair")``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Drew:
    """Public: ``player`` drew ``count`` cards at the five-card draw (0: he stood pat), as
    everyone sees at a live table. Which cards is :class:`DrawDealt`, private."""

    player: str
    count: int
    rule: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawDealt:
    """Private to ``player`` (as :class:`HoleDealt`), until a showdown shows his hand: the
    cards he discarded, those he received in their place, and his five cards now. Always
    right after his :class:`Drew`; the discards are never shown to anyone."""

    player: str
    discarded: tuple[int, ...]
    received: tuple[int, ...]
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class StubReshuffled:
    """Public: the stub could not cover the next draw; ``count`` cards (what was left of the
    stub, the burn card, the earlier players' discards, not the drawing player's) were
    gathered into a new stub, in the order committed in the set-up (:mod:`.draw`)."""

    count: int
    rule: str = ""


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
    | RunsOffered
    | RunsAnswered
    | RunsChosen
    | RunDealt
    | RunRanked
    | Drew
    | DrawDealt
    | StubReshuffled
)
