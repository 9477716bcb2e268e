"""The ligue's late entries and their chip penalties (PRÉAVIS, 6.22, sit&go notes)."""

from __future__ import annotations

import pytest

from server.league import EventKind, LeagueConfigError, ligue_late_entry

DAILY = EventKind.TOURNAMENT


def test_daily_within_two_blinds_with_1000_penalty() -> None:
    # "Un retardataire est admis dans un tournoi journalier à l'intérieur de 2 « blinds »
    # (30 minutes); il reçoit automatiquement une pénalité de 1000 unité."
    assert [ligue_late_entry(kind=DAILY, level=n).chip_penalty for n in (1, 2)] == [1000, 1000]
    assert not ligue_late_entry(kind=DAILY, level=3).admitted
    # 6.22: "Si les joueurs appellent pour aviser d'un retard, n'aura pas de pénalité pour
    # le premier blind" ... "les retards qui arrive aux deuxièmes blinds" pay
    assert ligue_late_entry(kind=DAILY, level=1, announced=True).chip_penalty == 0
    assert ligue_late_entry(kind=DAILY, level=2, announced=True).chip_penalty == 1000
    # note 2: 45 minutes for the players of the first journalier
    third = ligue_late_entry(kind=DAILY, level=3, from_first_daily=True)
    assert third.admitted and third.chip_penalty == 1000
    assert not ligue_late_entry(kind=DAILY, level=4, from_first_daily=True).admitted


def test_monthly_nights() -> None:
    # "La pénalité est de 1,000, pendant les trois premier blinds et 2,000 pour un joueur
    # qui entre dans le journalier avant le début de la première pause. Dès le début de la
    # première pause du journalier lors d'un mensuel, aucun joueur peut se joindre"
    def late(level: int, before_break: bool = True) -> tuple[bool, int]:
        d = ligue_late_entry(
            kind=DAILY, level=level, monthly_night=True, before_first_break=before_break
        )
        return d.admitted, d.chip_penalty

    assert [late(n) for n in (1, 2, 3, 4, 5)] == [
        (True, 1000),
        (True, 1000),
        (True, 1000),
        (True, 2000),
        (True, 2000),
    ]
    assert late(5, before_break=False) == (False, 0)


def test_sit_and_go() -> None:
    # 6.22: "Des joueurs peuvent s'ajouter lors du premier blind sans pénalité ... Après 15
    # minutes (2e blind), 1000 jetons sont retirés du tapis de départ."; note 7: "Un nouveau
    # joueur a une période de 30 minutes pour intégrer le tournoi (deux premiers blinds)."
    sng = EventKind.SIT_AND_GO
    assert ligue_late_entry(kind=sng, level=1).chip_penalty == 0
    assert ligue_late_entry(kind=sng, level=2).chip_penalty == 1000
    assert not ligue_late_entry(kind=sng, level=3).admitted


def test_refusals() -> None:
    with pytest.raises(LeagueConfigError):
        ligue_late_entry(kind=EventKind.MONTHLY, level=1)
    with pytest.raises(LeagueConfigError):
        ligue_late_entry(kind=DAILY, level=0)
