"""The ligue's late entries: who may still sit down and how many chips he loses (pure).

The penalty is in chips ("unités"), taken from the starting stack, not in points.

- Journalier, PRÉAVIS: "Un retardataire est admis dans un tournoi journalier à l'intérieur
  de 2 « blinds » (30 minutes); il reçoit automatiquement une pénalité de 1000 unité." and
  6.22: "Si les joueurs appellent pour aviser d'un retard, n'aura pas de pénalité pour le
  premier blind [...] Une pénalité de 1000 unités s'applique pour tous les retards
  non-annoncés, les retards qui arrive aux deuxièmes blinds".
- Monthly nights, PRÉAVIS note 1: "Pour les soirs de mensuel afin de permettre aux joueurs
  classés de jouer le journalier, une pénalité différente peut s'appliquer. La pénalité est
  de 1,000, pendant les trois premier blinds et 2,000 pour un joueur qui entre dans le
  journalier avant le début de la première pause. Dès le début de la première pause du
  journalier lors d'un mensuel, aucun joueur peut se joindre au tournoi."
- Note 2: "Un établissement peut aussi convenir d'allouer (45 minutes) pour les joueurs du
  premier journalier d'entrée dans le deuxième journalier." (blinds of 15 minutes: three).
- Sit&go, 6.22: "Des joueurs peuvent s'ajouter lors du premier blind sans pénalité pour
  combler une table jusqu'à 10 joueurs. Après 15 minutes (2e blind), 1000 jetons sont
  retirés du tapis de départ." and note 7: "Un nouveau joueur a une période de 30 minutes
  pour intégrer le tournoi (deux premiers blinds)."

Readings: the announced-lateness waiver is for the first blind only (6.22 is the precise
rule; the PRÉAVIS note 3 waives "la pénalité de 1000 unité" without a limit); a monthly
night's table is printed without that waiver and replaces it; the 45-minute allowance keeps
the daily penalty of 1,000.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import LeagueConfigError
from .results import EventKind

__all__ = ["LateEntry", "ligue_late_entry"]

_PENALTY = 1_000
_MONTHLY_LATE_PENALTY = 2_000


@dataclass(frozen=True, slots=True, kw_only=True)
class LateEntry:
    admitted: bool
    chip_penalty: int = 0
    """Chips taken from the starting stack."""
    reason: str = ""


def _daily(level: int, announced: bool, from_first_daily: bool) -> LateEntry:
    last = 3 if from_first_daily else 2
    if level > last:
        return LateEntry(admitted=False, reason=f"late registration ends after blind {last}")
    if announced and level == 1:
        return LateEntry(admitted=True, reason="lateness announced, first blind")
    return LateEntry(admitted=True, chip_penalty=_PENALTY)


def _monthly_night(level: int, before_first_break: bool) -> LateEntry:
    if not before_first_break:
        return LateEntry(admitted=False, reason="the first break has started (monthly night)")
    if level <= 3:
        return LateEntry(admitted=True, chip_penalty=_PENALTY)
    return LateEntry(admitted=True, chip_penalty=_MONTHLY_LATE_PENALTY)


def _sit_and_go(level: int) -> LateEntry:
    if level == 1:
        return LateEntry(admitted=True, reason="first blind: no penalty")
    if level == 2:
        return LateEntry(admitted=True, chip_penalty=_PENALTY)
    return LateEntry(admitted=False, reason="sit&go entries end after the second blind")


def ligue_late_entry(
    *,
    kind: EventKind,
    level: int,
    announced: bool = False,
    monthly_night: bool = False,
    before_first_break: bool = True,
    from_first_daily: bool = False,
) -> LateEntry:
    """May a player arriving at blind ``level`` (1-based) still enter, and at what cost.

    ``kind`` is :attr:`EventKind.TOURNAMENT` (a journalier) or :attr:`EventKind.SIT_AND_GO`;
    ``monthly_night``: the journalier is played on a monthly's night; ``from_first_daily``:
    the player comes from the first journalier and the establishment allows 45 minutes.
    Raises :class:`LeagueConfigError` for another kind or a level below 1.
    """
    if level < 1:
        raise LeagueConfigError(f"blind level {level}")
    if kind is EventKind.SIT_AND_GO:
        return _sit_and_go(level)
    if kind is not EventKind.TOURNAMENT:
        raise LeagueConfigError(f"no late-entry rule for a {kind}")
    if monthly_night:
        return _monthly_night(level, before_first_break)
    return _daily(level, announced, from_first_daily)
