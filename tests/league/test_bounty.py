"""fpc part B: the Bounty and "Kill the PVS" statuses of a stage and their prizes."""

from __future__ import annotations

from server.league import StageBounties, elimination_prize, stage_bounties

from .helpers import day, finish

SEASON = [
    finish("s1", ["ann", "bob", "cyd", "dan"], when=day(0)),
    finish("s2", ["bob", "ann", "cyd", "dan"], when=day(4)),
]


def test_the_previous_winner_is_the_bounty_and_stage_winners_are_pvs() -> None:
    # "Le vainqueur de l'étape précédente aura le statut de Bounty"; "Les différents
    # vainqueurs d'étape au cours d'une saison auront le statut de PVS"
    statuses = stage_bounties(list(reversed(SEASON)), ["ann", "bob", "cyd"])
    assert statuses == StageBounties(bounty=frozenset({"bob"}), pvs=frozenset({"ann", "bob"}))
    # "une prime de 10 000 jetons + la grosse blind en cours"; "2 500 jetons + la petite
    # blind en cours"; "n'est pas multiplié ... ni par le cumule Bounty + PVS"
    assert elimination_prize("bob", statuses, small_blind=300, big_blind=600) == 10_600
    assert elimination_prize("ann", statuses, small_blind=300, big_blind=600) == 2_800
    assert elimination_prize("cyd", statuses, small_blind=300, big_blind=600) == 0


def test_absent_bounty_and_a_new_season() -> None:
    # "Si le Bounty n'est pas présent au tournoi pour tenir son rang, le tournoi ne
    # comportera pas de Bounty."
    assert stage_bounties(SEASON, ["ann", "cyd"]).bounty == frozenset()
    # "Le Vainqueur de la dernière étape d'une saison sera le Bounty de la 1ère étape de la
    # saison suivante." / "Le statut de PVS n'est pas conservé d'une saison sur l'autre."
    first = stage_bounties([], ["ann", "bob"], previous_season=SEASON)
    assert first == StageBounties(bounty=frozenset({"bob"}), pvs=frozenset())
    assert stage_bounties([], ["ann"]) == StageBounties(bounty=frozenset(), pvs=frozenset())
