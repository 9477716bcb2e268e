"""A cash table's rules: its limits and what each rulebook's cash-game section says.

Two of the five books describe cash games: the casino's "Règles applicables en Cash Game"
(casino cash, file 003 lines 43-78) and the Friends Poker Club's "LE CASH GAME" with its
"multi-bordes" (fpc cash, file 004 lines 849-885). They differ on almost every point, so a
cash table carries a :class:`CashRules` made from the profile (:func:`cash_rules`), then
adjusted by the table's host within what the book allows (limits, blinds, rake).

The game dealt and its betting structure are part of a cash table's terms (issue 31): the
fpc's « LE FIVE-CARD DRAW » (file 004 lines 895-915) is a cash game of its own, with its own
cave, blinds, table size and season capital (« Les caves sont spécifiques à chaque jeu »):
``cash_rules("fpc", game="draw")``. Pure data:
the decisions live in :mod:`server.cash.book` (buy-ins, rebuys, cash-outs),
:mod:`server.cash.absence` (missed blinds) and :mod:`server.cash.capital` (fpc season
capital).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from server.cash.hours import ALWAYS, Hours
from server.engine.setup import Game, Structure

__all__ = [
    "DRAW_MAX_PLAYERS",
    "FPC_DRAW_CAPITAL",
    "FPC_DRAW_CAVE",
    "Absence",
    "CashRules",
    "Entry",
    "Rebuy",
    "cash_rules",
]

FPC_DRAW_CAVE = 5_000
"""fpc LE FIVE-CARD DRAW: « La cave est de 5 000 jetons » (one amount, not a range)."""
FPC_DRAW_CAPITAL = 50_000
"""fpc LE FIVE-CARD DRAW: « Chaque adhérent se voit attribuer un capital de départ de 50 000
jetons »."""
DRAW_MAX_PLAYERS = 6
"""fpc LE FIVE-CARD DRAW: « Les parties se jouent de 2 joueurs (minimum) à 6 joueurs
(maximum) »; the project keeps six at every profile's draw table (the other books have no
draw; six players leave 22 cards for the draw)."""


class Rebuy(StrEnum):
    """When a seated player may bring more chips."""

    ANNOUNCED = "announced"
    """Between hands, when announced and within the table's maximum (casino cash: « aucun
    apport de jetons extérieurs à la cave initiale n'est autorisé à moins de l'annoncer
    préalablement et de ne pas dépasser le maximum de la table »)."""
    BUSTED = "busted"
    """Only once every chip is lost (fpc cash: « une recave n'est pas possible tant que l'on
    possède des jetons devant soi »)."""


class Entry(StrEnum):
    """How a newcomer comes into the game."""

    SEAT_FEE = "seat_fee"
    """casino cash: he posts a big blind as a seat fee, unless the button has not finished
    its first round; or he waits for the big blind."""
    POSITION = "position"
    """fpc 17-2 (the cash section sends to « Changement de place »): he plays at once if he
    does not change the blinds' progress, else from the cut-off."""


class Absence(StrEnum):
    """What happens to an absent player's seat."""

    MISSED_BLINDS = "missed_blinds"
    """casino cash: first round of blinds dealt and taken, second round « miss blinds » and
    no cards, third round sit-out; with a waiting list, one round at most."""
    DEALT_IN = "dealt_in"
    """fpc cash: « le joueur absent de la table reçoit les cartes, les blinds sont
    prélevées »."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CashRules:
    """Everything that decides money at a cash table. Amounts are chips (integers)."""

    profile: str
    sb: int
    bb: int
    min_buyin: int
    """The smallest buy-in (casino: the table's minimum; fpc cash: 500)."""
    max_buyin: int
    """The largest stack one may bring (casino: the table's maximum; fpc cash: 5,000)."""
    unit: int
    """Buy-ins and rebuys are multiples of this (casino cash: « par multiples de la petite
    blind »)."""
    rebuy: Rebuy
    session_cap: int | None
    """The most one may buy in for during one session, in one or several buy-ins (fpc cash:
    « le montant de 5 000 jetons (en une ou plusieurs caves) est le maximum autorisé par
    session »); ``None``: no cap."""
    min_stack: int
    """No cards with less (casino cash: « on ne peut pas recevoir de cartes avec une cave
    inférieure à la grosse blind »)."""
    cashout_wait_seconds: int
    """After a cash-out, the wait before a new buy-in (fpc cash: 30 minutes)."""
    return_fee: bool
    """Leaving with one's stack and coming back costs a big blind as a seat fee (casino)."""
    entry: Entry
    absence: Absence
    capital: int | None
    """The season capital each member starts with (fpc cash: 40,000 for Hold'em); ``None``:
    no capital, the table is not part of a season."""
    runs: int
    """How many runs of the board when two players are all-in before the turn (fpc
    multi-bordes: 3); 1: one board unless the players agree to run it twice."""
    rake_permille: int = 0
    """The rake (casino « la taille »), per thousand of each pot; 0 for friends."""
    rake_cap: int = 0
    """The most raked from one hand (0: no cap)."""
    option: bool = False
    """Players may post the option, the casino's straddle: two big blinds, live, by the
    first player after the big blind (casino cash: « L'option est autorisée en Cash Game,
    il est possible de rentrer sur la table directement en option »). Not at fpc cash (its
    section has no option) nor under ligue (6.9: « Un joueur ne peut pas faire d'enjamber
    'straddle' »)."""
    hours: str = ""
    """When the tables are open, ``HH:MM-HH:MM`` in ``zone`` (fpc cash: « Les tables ouvrent
    à partir de 20h00 et ferment à 23h30 précise »); empty or ``always``: always. A league's
    fpc cash season opens its tables at the book's hours (:data:`~server.cash.hours.FPC_HOURS`)."""
    zone: str = "Europe/Paris"
    """The time zone of ``hours`` (the books are French clubs')."""
    game: Game = Game.HOLDEM
    """The game dealt (fpc « LE FIVE-CARD DRAW »: ``draw``); a table's chips and a season's
    capital belong to one game (« Les caves sont spécifiques à chaque jeu »)."""
    structure: Structure = Structure.NO_LIMIT
    """The betting structure: no-limit (the fpc's games are no-limit; the draw section says
    nothing, the project's default) or pot-limit, a table's option."""
    max_players: int = 10
    """The most players a table of these rules seats (fpc cash: « de 2 joueurs (minimum) à
    10 joueurs (maximum) »; fpc draw: 6)."""

    def opening(self) -> Hours | None:
        """The parsed ``hours`` (None: always open)."""
        if not self.hours or self.hours == ALWAYS:
            return None
        return Hours.parse(self.hours, self.zone)

    def check(self) -> None:
        """Raise ``ValueError`` for limits no table could play with."""
        if not 0 < self.sb <= self.bb:
            raise ValueError("blinds: 0 < small blind <= big blind")
        if self.unit <= 0 or self.min_buyin % self.unit or self.max_buyin % self.unit:
            raise ValueError(f"the limits must be multiples of {self.unit}")
        if not self.bb <= self.min_buyin <= self.max_buyin:
            raise ValueError("limits: big blind <= minimum buy-in <= maximum buy-in")
        if self.session_cap is not None and self.session_cap < self.min_buyin:
            raise ValueError("the session cap is below the minimum buy-in")
        if not 1 <= self.runs <= 3:
            raise ValueError("runs: 1, 2 or 3")
        self.opening()  # ValueError for hours that are none
        if not 0 <= self.rake_permille <= 100 or self.rake_cap < 0:
            raise ValueError("rake: 0 to 100 per thousand (10 %), cap >= 0")
        if not 2 <= self.max_players <= 10:
            raise ValueError("2 to 10 players")
        if self.game is Game.DRAW:
            self._check_draw()

    def _check_draw(self) -> None:
        """What five-card draw cannot have: a board to run again, a straddle, more than six
        players; and at the fpc a cave that is not one amount."""
        if self.runs != 1:
            raise ValueError("five-card draw has no board to run again: runs 1")
        if self.option:
            raise ValueError("no option (straddle) at five-card draw")
        if self.max_players > DRAW_MAX_PLAYERS:
            # fpc LE FIVE-CARD DRAW: « de 2 joueurs (minimum) à 6 joueurs (maximum) »
            raise ValueError(f"five-card draw: {DRAW_MAX_PLAYERS} players at most")
        if self.profile == "fpc" and self.min_buyin != self.max_buyin:
            # fpc LE FIVE-CARD DRAW: « La cave est de 5 000 jetons »: one amount
            raise ValueError("fpc five-card draw: the cave is one amount (minimum = maximum)")

    def seats_refusal(self, max_seats: int) -> str | None:
        """Why a table of ``max_seats`` seats may not play these rules (the table checks it
        when it is created), or None."""
        if max_seats > self.max_players:
            return f"{max_seats} seats: {self.max_players} players at most at this game"
        return None


def cash_rules(profile: str, **changes: object) -> CashRules:
    """The rules of ``profile``'s cash games (casino or fpc; every other profile plays cash
    as the casino does, the only other book with a cash section), with the host's
    ``changes`` (limits, blinds, rake), checked. ``game`` and ``structure`` among the
    changes (enum members or their wire values) choose the game: ``game="draw"`` is the
    fpc's « LE FIVE-CARD DRAW » (:func:`_fpc_draw`), at another profile the casino's cash
    rules dealing five-card draw. Raises ``ValueError`` (a bad game or structure included:
    :func:`server.cash.terms.cash_terms` gives their stable codes)."""
    if "game" in changes:
        changes["game"] = Game(str(changes["game"]))
    if "structure" in changes:
        changes["structure"] = Structure(str(changes["structure"]))
    draw = changes.get("game") is Game.DRAW
    if profile == "fpc" and draw:
        base = _fpc_draw()
    elif profile == "fpc":
        # fpc cash: buy-in 500-5,000, at most 5,000 per session, blinds 25/50 that never
        # rise, capital 40,000, whole cash-out then 30 minutes, three runs (multi-bordes)
        base = CashRules(
            profile=profile,
            sb=25,
            bb=50,
            min_buyin=500,
            max_buyin=5_000,
            unit=25,
            rebuy=Rebuy.BUSTED,
            session_cap=5_000,
            min_stack=1,
            cashout_wait_seconds=30 * 60,
            return_fee=False,
            entry=Entry.POSITION,
            absence=Absence.DEALT_IN,
            capital=40_000,
            runs=3,
        )
    else:
        # casino cash: the limits are the table's (20 to 100 big blinds unless the host says
        # otherwise), rebuys by multiples of the small blind, no cards under a big blind
        sb = int(changes.get("sb", 50))  # type: ignore[call-overload]
        bb = int(changes.get("bb", 2 * sb))  # type: ignore[call-overload]
        base = CashRules(
            profile=profile,
            sb=sb,
            bb=bb,
            min_buyin=20 * bb,
            max_buyin=100 * bb,
            unit=sb,
            rebuy=Rebuy.ANNOUNCED,
            session_cap=None,
            min_stack=bb,
            cashout_wait_seconds=0,
            return_fee=True,
            entry=Entry.SEAT_FEE,
            absence=Absence.MISSED_BLINDS,
            capital=None,
            runs=1,
            # casino cash: « L'option est autorisée en Cash Game »; ligue 6.9: « Un joueur ne
            # peut pas faire d'enjamber 'straddle' »
            option=profile != "ligue" and not draw,
            max_players=DRAW_MAX_PLAYERS if draw else 10,
        )
    rules = replace(base, **changes)  # type: ignore[arg-type]
    rules.check()
    return rules


def _fpc_draw() -> CashRules:
    """fpc LE FIVE-CARD DRAW (file 004 lines 895-915), point by point."""
    return CashRules(
        profile="fpc",
        game=Game.DRAW,
        # « Les Blinds sont de 50/100 jetons et n'augmentent pas avec le temps » (a cash
        # table's blinds never rise)
        sb=50,
        bb=100,
        # « La cave est de 5 000 jetons »: one amount, a buy-in of anything else refused
        min_buyin=FPC_DRAW_CAVE,
        max_buyin=FPC_DRAW_CAVE,
        unit=50,
        # the section says nothing of rebuys; its cash-out rule (« ne pourra disposer de
        # nouveau d'une cave qu'après une période de 30 minutes ») takes more than one cave a
        # night: the project's choice is the hold'em cash game's, a new cave once every chip
        # is lost, and no session cap (the draw section has none)
        rebuy=Rebuy.BUSTED,
        session_cap=None,
        min_stack=1,
        # « Un joueur a la possibilité de décaver à tout moment. Toutefois la décave ne peut
        # être partielle et le joueur ne pourra disposer de nouveau d'une cave qu'après une
        # période de 30 minutes. »
        cashout_wait_seconds=30 * 60,
        return_fee=False,
        # « Un nouveau joueur peut intégrer une table en cours de jeu en choisissant une place
        # libre »: the section does not send to « Changement de place » as the hold'em cash
        # game does; the project applies the same arrival (fpc 17-2), the club's one rule
        entry=Entry.POSITION,
        # « Le joueur absent de la table reçoit les cartes, les binds sont prélevées »
        absence=Absence.DEALT_IN,
        # « un capital de départ de 50 000 jetons »
        capital=FPC_DRAW_CAPITAL,
        runs=1,
        # « Les parties se jouent de 2 joueurs (minimum) à 6 joueurs (maximum) »
        max_players=DRAW_MAX_PLAYERS,
    )
