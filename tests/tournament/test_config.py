"""Configuration files, profile parameters with citations, example structures."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.engine.profile import PROFILE_IDS
from server.engine.setup import AnteFormat
from server.tournament import ConfigError, PointsSchemeKind, TournamentConfig, load_rules
from server.tournament.rules import ChipRaceRounding, HandForHandTrigger, SeatRule

from .helpers import LEVELS, config

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "tournaments"


@pytest.mark.parametrize("profile", PROFILE_IDS)
def test_every_profile_value_has_a_citation(profile: str) -> None:
    rules = load_rules(profile)
    assert rules.citations
    assert all(cite.strip() for cite in rules.citations.values())


def test_profile_parameters_differ_as_the_rulebooks_say() -> None:
    cdc, tda, ligue, casino, fpc = (load_rules(p) for p in ("cdc", "tda", "ligue", "casino", "fpc"))
    # cdc 2.3 / tda 10-D: 3 early, 2 late; ligue art. 3 and fpc 3-3: 2 throughout
    assert (cdc.balance_gap_early, cdc.balance_gap_late) == (3, 2)
    assert (tda.balance_gap_early, tda.balance_gap_late) == (3, 2)
    assert ligue.balance_gap_early == fpc.balance_gap_early == 2
    # cdc 2.6: at most 9, one more than the table up to 8; tda 11: one more, at most 10
    assert [cdc.final_table_size(n) for n in (6, 7, 8, 9, 10)] == [7, 8, 9, 9, 9]
    assert [tda.final_table_size(n) for n in (6, 8, 9, 10)] == [7, 9, 10, 10]
    # chip race rounding: cdc 3.2 from 50 %, casino up, ligue 6.25 / fpc 21-2 per player
    assert cdc.chip_race_rounding is ChipRaceRounding.HALF_UP
    assert casino.chip_race_rounding is ChipRaceRounding.UP
    assert ligue.chip_race_rounding is fpc.chip_race_rounding is ChipRaceRounding.PLAYER_UP
    # cdc 2.7: money and final table; fpc 5-4: final table only
    assert set(cdc.hand_for_hand) == {HandForHandTrigger.MONEY, HandForHandTrigger.FINAL_TABLE}
    assert fpc.hand_for_hand == (HandForHandTrigger.FINAL_TABLE,)
    # ligue 6.22: 1000-unit penalty, latecomer after the dealer; cdc 1.8: level 2
    assert ligue.late_entry_penalty == ((1, 1000),)
    assert ligue.late_seat is SeatRule.AFTER_BUTTON
    assert cdc.late_registration_until_level == 2
    assert tda.late_seat is SeatRule.RANDOM  # tda 7


def test_overrides_and_penalty_by_level() -> None:
    cfg = config(profile="ligue", late_registration_until_level=2, late_entry_penalty=[[2, 1000]])
    assert cfg.penalty_at(1) == 0 and cfg.penalty_at(2) == 1000  # ligue sit&go (6.22)
    assert cfg.rules.cite("late_entry_penalty") == "tournament configuration"
    cfg = config(rules={"balance_gap_early": 2})
    assert cfg.rules.balance_gap_early == 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"levels": [{"break": True, "minutes": 5}, *LEVELS]}, "start with a level"),
        ({"levels": [{**LEVELS[0], "chip_race": 100}]}, "smallest chip"),
        (
            {
                "levels": [
                    LEVELS[0],
                    {**LEVELS[1], "chip_race": 25},
                    {"sb": 75, "bb": 150, "minutes": 5},
                ]
            },
            "cannot be paid",
        ),
        ({"payouts": [{"entrants": [2, 10], "percents": [60, 30]}]}, "sum to 100"),
        ({"levels": [{"sb": 25, "bb": 50, "ante": 50, "minutes": 5}]}, "ante_format"),
        ({"rebuy": {"until_level": 3}}, "late registration"),
        ({"colour": 1}, "unknown keys"),
    ],
)
def test_invalid_configs_are_refused(change: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        config(**change)


def test_tour_des_potes_structure_as_printed() -> None:
    # fpc part B, "Structure du tournoi" (Ante BB): 20,000 chips, 28 levels
    cfg = TournamentConfig.load(EXAMPLES / "tour_des_potes_bb_ante.toml")
    assert cfg.profile == "fpc" and cfg.starting_stack == 20000 and len(cfg.levels) == 28
    first, last = cfg.levels[0], cfg.levels[-1]
    assert first.blinds is not None and last.blinds is not None
    assert (first.blinds.sb, first.blinds.bb, first.blinds.ante, first.minutes) == (25, 50, 50, 25)
    assert first.blinds.ante_format is AnteFormat.BIG_BLIND
    assert (last.blinds.sb, last.blinds.bb, last.minutes) == (20000, 40000, 15)
    assert [lv.minutes for lv in cfg.levels].count(20) == 9
    assert cfg.points is not None and cfg.points.kind is PointsSchemeKind.TOUR_DES_POTES
    kinds = {b.kind: b for b in cfg.bounties}
    assert kinds["bounty"].chips == 10000 and kinds["kill_the_pvs"].chips == 2500
    classic = TournamentConfig.load(EXAMPLES / "tour_des_potes_classic_ante.toml")
    sixth = classic.levels[5].blinds
    assert sixth is not None and (sixth.sb, sixth.bb, sixth.ante) == (150, 300, 25)
    assert sixth.ante_format is AnteFormat.CLASSIC


def test_sit_and_go_and_ligue_examples() -> None:
    sng = TournamentConfig.load(EXAMPLES / "fpc_sit_and_go.toml")
    assert sng.starting_stack == 5000 and (sng.min_players, sng.max_entries) == (6, 10)
    assert [lv.blinds.bb for lv in sng.levels if lv.blinds] == [
        50,
        100,
        150,
        200,
        300,
        400,
        600,
        800,
        1000,
        1200,
        1600,
        2000,
    ]
    assert sng.points is not None and sng.points.table[10][0] == 20
    daily = TournamentConfig.load(EXAMPLES / "ligue_daily.toml")
    assert daily.starting_stack == 12000 and daily.penalty_at(1) == 1000
    assert daily.late_registration_until_level == 2 and daily.final_table_size == 10
    ligue_sng = TournamentConfig.load(EXAMPLES / "ligue_sit_and_go.toml")
    assert [lv.minutes for lv in ligue_sng.levels[:3]] == [15, 15, 10]
    assert ligue_sng.penalty_at(1) == 0 and ligue_sng.penalty_at(2) == 1000
