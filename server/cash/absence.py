"""Absences and arrivals at a cash table: who is dealt in, who owes blinds, who loses his seat.

casino cash (file 003 lines 63-72): « Les cartes du joueur absent sont brûlées à son tour de
parole et ce même si le joueur est de petite ou de grosse blind. En cas de liste d'attente, la
durée d'absence à une table ne peut être supérieure à un tour de bouton [...] sa place sera
libérée au delà d'un tour de bouton. Cependant, s'il n'y a pas de liste d'attente : au premier
tour de blind, le croupier donnera des cartes au joueur absent et prélèvera ses blinds [...];
au deuxième tour de blind, le croupier lui mettra les boutons « miss blinds », ne lui
distribuera pas de cartes et fera avancer les blinds au joueur suivant [...]; au troisième
tour de blind, le joueur sera considéré comme absent (« sit out ») [...]. A son retour, il
devra payer les « miss blinds » s'il a été absent pendant plus d'un tour (sa grosse blind sera
déposée devant sa case, comme un droit de siège et la petite blind sera mise directement dans
le pot). » fpc cash: « le joueur absent de la table reçoit les cartes, les blinds sont
prélevées ».

A *round* of an absent player is one turn of the blinds at his seat: it ends when he has
posted (dealt in, first round) his big blind and then his small blind, or when his big blind
was skipped (not dealt in: the marks are set, both blinds being owed). Pure: the table says
when a deal starts and which blind reached whom, this module says what follows.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from server.cash.rules import Absence, CashRules, Entry

__all__ = [
    "Arrival",
    "Away",
    "Deal",
    "Dues",
    "arrival_dues",
    "big_blind_came",
    "deal",
    "small_blind_came",
]


class Deal(StrEnum):
    """What the next deal does with a seat."""

    PLAY = "play"
    """Present: dealt in."""
    DEAD = "dead"
    """Absent: dealt a hand burned at his turn, his blinds taken (casino first round, fpc
    always, casino with a waiting list for one round)."""
    MISSED = "missed"
    """Absent: no cards; the blinds move on to the next player and his are marked missed
    (casino second round)."""
    SIT_OUT = "sit_out"
    """Absent: no cards (casino third round and after)."""
    FREE = "free"
    """His seat is freed and his stack taken off the table (casino: a waiting list and an
    absence longer than one round)."""


@dataclass(frozen=True, slots=True)
class Away:
    """An absent player's count."""

    rounds: int = 0
    """Turns of the blinds at his seat since he left."""
    missed: bool = False
    """His blinds were skipped: he owes them on his return."""
    big_blind: bool = False
    """His big blind was taken in this round; the small blind that follows ends it."""


def deal(away: Away | None, rules: CashRules, waiting_list: bool) -> Deal:
    """What the next deal does with a seat whose player is ``away`` (``None``: present)."""
    if away is None:
        return Deal.PLAY
    if rules.absence is Absence.DEALT_IN:
        return Deal.DEAD  # fpc cash: dealt in, blinds taken, however long he is away
    if waiting_list:
        # casino cash: « ne peut être supérieure à un tour de bouton », and a waiting list
        # formed in the second or third round « on lui retirera sa cave »
        return Deal.DEAD if away.rounds == 0 else Deal.FREE
    if away.rounds == 0:
        return Deal.DEAD
    if away.rounds == 1:
        return Deal.MISSED
    return Deal.SIT_OUT


def big_blind_came(away: Away, treated: Deal) -> Away:
    """The big blind reached the absent player's seat in a deal that treated him as
    ``treated``: dealt in, he posted it (the small blind that follows ends the round);
    skipped, the round is over and both blinds are owed (« les boutons miss blinds »)."""
    if treated is Deal.DEAD:
        return Away(rounds=away.rounds, missed=away.missed, big_blind=True)
    return Away(rounds=away.rounds + 1, missed=True)


def small_blind_came(away: Away) -> Away:
    """The small blind reached the absent player's seat, dealt in: after his big blind,
    his round is over."""
    if not away.big_blind:
        return away
    return Away(rounds=away.rounds + 1, missed=away.missed)


class Arrival(StrEnum):
    """Why a player sits down (what he owes depends on it)."""

    NEW = "new"
    """His first time at this table."""
    RETURN = "return"
    """He left with his stack and comes back."""
    BACK = "back"
    """Back at his seat after an absence."""
    MOVED = "moved"
    """Brought by balancing or a merge from another table of the room: no seat fee (casino:
    he waits for the button when placed between the small blind and the button)."""
    REBOUGHT = "rebought"
    """Back after busting and rebuying (casino: « à son retour, on ne lui demandera pas de
    droit de siège »)."""


@dataclass(frozen=True, slots=True)
class Dues:
    """Posted before the cards at his first deal back."""

    live: int = 0
    """A big blind as a seat fee, in front of him: it counts as his bet."""
    dead: int = 0
    """A small blind straight into the pot: not his bet."""


def arrival_dues(
    rules: CashRules, arrival: Arrival, first_orbit: bool, away: Away | None = None
) -> Dues:
    """What an arriving player posts (unless he waits for the big blind, which costs
    nothing). casino cash: a newcomer « comme droit de siège, le montant équivalent de la
    grosse blind sauf si le bouton n'a pas fini son premier tour »; « si un joueur quitte la
    table en retirant sa cave, il devra payer, comme droit de siège, une grosse blind à son
    retour »; back from an absence with missed blinds: the big blind live and the small
    blind dead. fpc cash sends to fpc 17-2: nothing to pay, he plays from a position that does
    not change the blinds' progress (the table's ``waits_as_newcomer``)."""
    if rules.entry is not Entry.SEAT_FEE:
        return Dues()
    if arrival is Arrival.NEW:
        return Dues() if first_orbit else Dues(live=rules.bb)
    if arrival is Arrival.RETURN:
        return Dues(live=rules.bb)
    if arrival is Arrival.BACK and away is not None and away.missed:
        return Dues(live=rules.bb, dead=rules.sb)
    return Dues()
