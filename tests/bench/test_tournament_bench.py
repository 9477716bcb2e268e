"""bench/tournament.py on 200 players (issue 5): the same code as the 10,000-player benchmark,
real engine hands, to a single winner with chips conserved at every hand."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bench.tournament import DEFAULT_CONFIG, ROOT, main, run

LAST_LINE = re.compile(r"tournament_10k: \d+\.\d s \d+ hands \d+ MiB")


@pytest.mark.parametrize(
    ("config", "seed"),
    [
        (DEFAULT_CONFIG, 1),
        (DEFAULT_CONFIG, 2),
        (ROOT / "docs" / "tournaments" / "tour_des_potes_bb_ante.toml", 3),
    ],
)
def test_two_hundred_players_to_a_winner(config: object, seed: int) -> None:
    report = run(200, seed, str(config))
    sim = report.sim
    tr = sim.trace
    assert tr.finished is not None
    results = tr.finished.results
    assert len(results) == 200
    assert Counter(r.player_id for r in results).most_common(1)[0][1] == 1
    assert results[0].place == 1 and results[0].player_id == report.winner
    # a single winner holds every chip in play
    assert [p for p, n in sim.stacks.items() if n] == [report.winner]
    assert report.winner_stack == report.total_chips == sim.expected_chips
    assert report.total_chips == 200 * sim.config.starting_stack + sim.race_delta
    # chips conserved at every hand end (the check raises otherwise), every hand a real one
    assert tr.hands == tr.reports == report.chip_checks == sim.engine.hands > 0
    assert report.tables_at_start == 23
    assert tr.gap_violations == 0 and tr.moved_skips == 0 and tr.break_skips == 0
    assert tr.moves > 0 and tr.breaks > 0


def test_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--players", "200", "--seed", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert LAST_LINE.fullmatch(lines[-1]), lines[-1]
    assert any(line.startswith("winner: p") for line in lines)
