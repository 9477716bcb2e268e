"""Where a newcomer waits, by the profile's arrival rule (issue 28, points 1 and 2): the pure
rule (``newcomer_waits``) and the profiles that choose it."""

from __future__ import annotations

import pytest

from server.engine.positions import Newcomer, Positions, newcomer_waits
from server.engine.profile import PROFILE_IDS, load_profile

# six seats; the button on 2 (the busted small blind's seat, a dead button: ligue art. 2.2),
# the small blind slot on 3, the big blind on 4
AFTER_SB_BUST = Positions(button=2, sb_slot=3, big_blind=4)
# the big blind of seat 3 busted: the old small blind (2) on the button, no small blind is
# posted unless someone dealt in sits on 3, the big blind on 4 (ligue art. 2.1)
AFTER_BB_BUST = Positions(button=2, sb_slot=3, big_blind=4)


def waits(rule: Newcomer, seat: int, positions: Positions) -> bool:
    return newcomer_waits(rule, seat, positions, 6)


def test_ligue_a_newcomer_never_takes_the_button_nor_the_small_blind() -> None:
    # ligue art. 3: « il ne peut pas prendre la position de Brasseur. Il doit attendre le
    # prochain jeu. Si la seule position disponible est le Small Blind, le joueur attendra au
    # prochain tour »; « il devra assumer sa position BB »
    rule = Newcomer.BUTTON_PASSES
    assert waits(rule, 2, AFTER_SB_BUST)  # the button's seat
    assert waits(rule, 3, AFTER_BB_BUST)  # the small blind's slot
    assert not waits(rule, 4, AFTER_SB_BUST)  # the big blind: he plays and posts it
    assert not waits(rule, 5, AFTER_SB_BUST) and not waits(rule, 1, AFTER_SB_BUST)


def test_cdc_a_newcomer_plays_on_the_button_and_in_the_small_blind() -> None:
    # cdc 2.3: « peut jouer immédiatement au bouton »; « il assumera la petite blinde »
    rule = Newcomer.BLINDS_ADVANCE
    assert not waits(rule, 2, AFTER_SB_BUST)
    assert not waits(rule, 3, AFTER_BB_BUST)
    # but never strictly between the button and the big blind where no small blind is
    # posted (tda 7: « exceptée entre la petite blind et le bouton »)
    no_sb = Positions(button=1, sb_slot=3, big_blind=4, small_blind=False)
    assert waits(rule, 2, no_sb) and waits(rule, 3, no_sb)


@pytest.mark.parametrize("profile", PROFILE_IDS)
def test_each_profile_names_its_arrival_rule_with_its_citation(profile: str) -> None:
    p = load_profile(profile)
    expected = Newcomer.BUTTON_PASSES if profile == "ligue" else Newcomer.BLINDS_ADVANCE
    assert p.newcomer is expected
    assert p.citations["newcomer"] and p.cite("newcomer")
    assert p.cite("newcomer").startswith("ligue-art.3" if profile == "ligue" else "")
