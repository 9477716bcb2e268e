"""What a hand starts from: seats, stacks, blinds, button, profile and the dealt cards.

Two games (:class:`Game`): No-Limit Hold'em and five-card draw high (fpc « LE FIVE-CARD DRAW »,
:mod:`.draw`), each no-limit or pot-limit (:class:`Structure`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from .errors import SetupError
from .profile import Profile
from .rake import Rake

__all__ = [
    "DEFAULT_DENOMINATIONS",
    "DRAW_HOLE",
    "MAX_DISCARD",
    "AnteFormat",
    "Blinds",
    "Game",
    "HandSetup",
    "SeatSetup",
    "Structure",
]

DEFAULT_DENOMINATIONS = (25, 100, 500, 1000, 5000, 25000)
DRAW_HOLE = 5
"""Cards each player holds in five-card draw."""
MAX_DISCARD = 5
"""The most cards a player may discard at the draw (project choice, docs/rules-matrix.md: the
fpc's leaflet is missing; online rooms let a player draw 0 to 5)."""


class Game(StrEnum):
    """The game a hand is dealt in."""

    HOLDEM = "holdem"
    """Texas Hold'em: two hole cards, a five-card board, four betting rounds."""
    DRAW = "draw"
    """Five-card draw high (fpc « LE FIVE-CARD DRAW »): five cards each, a betting round, one
    draw, a second betting round, a showdown of five-card hands (:mod:`.draw`)."""


class Structure(StrEnum):
    """How much a player may bet or raise."""

    NO_LIMIT = "no_limit"
    """Up to his whole stack."""
    POT_LIMIT = "pot_limit"
    """Up to the current bet plus the pot after his call (capped by his stack); ``pot`` raises
    to that amount."""


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
    seat_fee: int = 0
    """A LIVE post, at most the big blind, made before the action (casino cash: « Tout
    joueur entrant en cours de partie sera tenu de mettre au minimum, comme droit de siège, le
    montant équivalent de la grosse blind »; the big blind of a returning player's missed
    blinds, « déposée devant sa case, comme un droit de siège »). It is his bet of the
    preflop round, as a big blind is: he may check when nobody raised. A blind he posts this
    hand counts toward it (the big blind posts only the big blind). Posted with a
    ``dead_post``, it is the owed big blind of missed blinds (``PostKind.MISSED_BIG_BLIND``),
    else a seat fee (``PostKind.SEAT_FEE``). 0: none."""
    dead_post: int = 0
    """Chips posted DEAD, straight into the pot: not his bet, won by the hand's winner as any
    dead money (casino cash, « miss blinds »: « la petite blind sera mise directement dans le
    pot »). Posted after the live posts. 0: none."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandSetup:
    """Everything a hand needs. Cards are indices from :mod:`server.engine.cards`."""

    profile: Profile
    blinds: Blinds
    seats: tuple[SeatSetup, ...]
    button: int
    hole: Mapping[str, tuple[int, ...]]
    """Each player's cards: two in hold'em, five in draw (:data:`DRAW_HOLE`)."""
    board: tuple[int, ...]
    """Hold'em: the five board cards. Draw: empty."""
    denominations: tuple[int, ...] = DEFAULT_DENOMINATIONS
    big_blind: int | None = None
    """Pins the big blind seat (dead-button hands)."""
    extra: Mapping[str, object] = field(default_factory=dict)
    rake: Rake | None = None
    """The house's share of each pot (casino cash, « la taille »; :mod:`.rake`). None or
    ``Rake(permille=0)``: no rake (friends tables, tournaments)."""
    runs: int = 1
    """Runs of the board (1..3) dealt when, and only when, two players are all-in before the
    turn (:mod:`.runs`): 3 at an fpc cash table (« le multi-bordes »), 1 elsewhere (fpc
    tournaments too: the multi-bordes is a cash-game rule)."""
    runs_agreed: bool = False
    """True: the ``runs`` are dealt only if both players agree (a friends table's "run it
    twice", :class:`~server.engine.commands.AgreeRuns`); False: without asking."""
    extra_boards: tuple[tuple[int, ...], ...] = ()
    """The five cards of each run after the first (``runs - 1`` boards; empty when ``runs``
    is 1), fresh cards none of which is a hole card or on ``board``."""
    option: int | None = None
    """The seat posting the option, or None (casino cash: « L'option est autorisée en Cash
    Game, il est possible de rentrer sur la table directement en option »). The option is the
    casino's straddle: before the cards, the first live player left of the big blind
    (:meth:`option_seat`) posts a LIVE blind of twice the big blind, his bet of the preflop
    round. The action starts on his left and he speaks last preflop: he may check his option
    when nobody raised, or raise. It counts as the new big blind: the next raise is to at
    least twice the option whatever the profile's ``min_raise`` rule. Posted after the blinds
    and the seat fees; it covers his own seat fee (he comes in « directement en option »),
    not a dead blind he owes. Offered by the table (a cash game), not by the rule profile:
    the hand accepts an option under any profile.

    Short of two big blinds, he posts what he has and is all-in; the bet to call stays at
    least the big blind (cdc 9.7, as for a short big blind): an option below the big blind
    leaves the bet at one big blind, one between the big blind and two makes the bet what
    he posted, and only a full option sets the raise increment (as a short all-in raise does
    not, cdc 9.8)."""

    game: Game = Game.HOLDEM
    structure: Structure = Structure.NO_LIMIT
    stub: tuple[int, ...] = ()
    """Draw only: every card not dealt (nor burnt), in the order the draw deals them; the
    replacement cards come from its top, in the order the players draw (:mod:`.draw`)."""
    burn: int | None = None
    """Draw only: the card burnt before the draw (project choice: one, as dealt at a live draw
    table and before each street of Brasseur's hold'em), or None. Never dealt to anyone; it
    goes into the new stub if the stub runs out."""
    reshuffle: tuple[int, ...] = ()
    """Draw only: the order of a new stub when the stub runs out, as a permutation of the 52
    cards (the cards gathered are dealt in the order they appear in it); empty: by card
    index. The engine draws no random number: the dealing layer commits to this order."""
    max_discard: int = MAX_DISCARD
    """Draw only: the most cards a player may discard (0..5)."""

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
        self._validate_posts()
        self._validate_option()
        if self.rake is not None:
            self.rake.validate()

    def _validate_posts(self) -> None:
        """Seat fees and dead posts (casino cash): non-negative, a seat fee no more than the
        big blind (a larger live post would be a raise before the action), none on a dead
        hand (it never acts). A player short of chips posts what he has, all-in."""
        for s in self.seats:
            if s.seat_fee < 0 or s.dead_post < 0:
                raise SetupError(f"player {s.player}: a post cannot be negative")
            if s.seat_fee > self.blinds.bb:
                raise SetupError(f"player {s.player}: a seat fee is at most the big blind")
            if s.dead and (s.seat_fee or s.dead_post):
                raise SetupError(f"player {s.player}: a dead hand posts no seat fee")

    def option_seat(self) -> int | None:
        """The seat that may post the option: the first live (not dead) seat left of the big
        blind, the player first to speak preflop (« UTG »). None with fewer than three live
        players (heads-up has no option)."""
        live = sorted(s.seat for s in self.seats if not s.dead)
        if len(live) < 3:
            return None
        big_blind = self.big_blind
        if big_blind is None:
            # the second seat left of the button (Hand._blind_positions, three or more seats)
            seats = sorted(s.seat for s in self.seats)
            after = [s for s in seats if s > self.button] + [s for s in seats if s <= self.button]
            big_blind = after[1]
        return next((s for s in live if s > big_blind), live[0])

    def _validate_option(self) -> None:
        """casino cash, the option: an occupied seat, dealt a live hand, the first live seat
        left of the big blind, three live players at least (no option heads-up)."""
        if self.option is None:
            return
        seat = next((s for s in self.seats if s.seat == self.option), None)
        if seat is None:
            raise SetupError("the option must be posted from an occupied seat")
        if seat.dead:
            raise SetupError(f"player {seat.player}: a dead hand posts no option")
        expected = self.option_seat()
        if expected is None:
            raise SetupError("no option with fewer than three players in the hand")
        if self.option != expected:
            raise SetupError(
                f"the option is posted by the first player left of the big blind (seat "
                f"{expected}), not seat {self.option}"
            )

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
        if self.game is Game.DRAW:
            self._validate_draw()
            return
        if any(len(cards) != 2 for cards in self.hole.values()):
            raise SetupError("hold'em: two hole cards each")
        if self.stub or self.burn is not None or self.reshuffle:
            raise SetupError("hold'em has no stub, burn card or reshuffle")
        cards = [c for pair in self.hole.values() for c in pair] + list(self.board)
        if len(self.board) != 5:
            raise SetupError("the board must hold five cards")
        if not 1 <= self.runs <= 3 or len(self.extra_boards) != self.runs - 1:
            raise SetupError("runs is 1 to 3, with one extra board for each run after the first")
        if any(len(extra) != 5 for extra in self.extra_boards):
            raise SetupError("each extra board must hold five cards")
        cards += [c for extra in self.extra_boards for c in extra]  # fpc: fresh cards each run
        if len(set(cards)) != len(cards) or any(not 0 <= c < 52 for c in cards):
            raise SetupError("duplicate or invalid card")

    def _validate_draw(self) -> None:
        """Five-card draw: five cards each, no board, one run; the hole cards, the burn card
        and the stub make the whole deck once each (the engine must know every card to form
        a new stub); at most nine players (52 - 5 x 9 = 7 cards always cover a draw of five:
        with the burn card and the earlier discards, :mod:`.draw`)."""
        if self.board or self.runs != 1 or self.extra_boards:
            raise SetupError("five-card draw has no board and one run")
        if any(len(cards) != DRAW_HOLE for cards in self.hole.values()):
            raise SetupError("five-card draw: five cards each")
        if not 0 <= self.max_discard <= DRAW_HOLE:
            raise SetupError("max_discard is 0 to 5")
        if DRAW_HOLE * len(self.seats) + self.max_discard > 52:
            raise SetupError("too many players for a draw of five cards from one deck")
        burn = () if self.burn is None else (self.burn,)
        cards = [c for hand in self.hole.values() for c in hand] + [*burn, *self.stub]
        if len(set(cards)) != len(cards) or any(
            not isinstance(c, int) or not 0 <= c < 52 for c in cards
        ):
            raise SetupError("duplicate or invalid card")
        if len(cards) != 52:
            raise SetupError("the stub must hold every card not dealt nor burnt")
        if self.reshuffle and sorted(self.reshuffle) != list(range(52)):
            raise SetupError("reshuffle must be a permutation of the 52 cards")
