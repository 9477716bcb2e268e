"""bench/tournament_live.py on 30 players over 2 processes (issue 11): a real Redis, real server
processes and the load tester's bots over websockets, to one winner with no violation and no
chip lost; the report has every figure of the big run."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from bench.tournament_live import main

LAST_LINE = re.compile(r"tournament_live: 30 players 2 processes \d+ s \d+ hands 0 violations")


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
def test_thirty_players_over_two_processes_to_a_winner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.json"
    argv = ["--players", "30", "--processes", "2", "--level-minutes", "2", "--json", str(out)]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert LAST_LINE.fullmatch(lines[-1]), lines[-1]
    report = json.loads(out.read_text())
    assert report["violations_total"] == 0, report["violations"]
    assert report["chips_lost"] == 0
    assert report["hands"] > 20 and report["moves"] > 0
    assert report["hands_bots_counted"] > 0 and report["actions"] > report["hands"]
    assert report["redis_commands_per_hand"] > 0
    latency = report["director_latency_ms"]
    assert latency["samples"] >= report["hands"] and latency["p50"] is not None
    assert report["play_s"] is not None and report["play_s"] <= report["wall_s"]
    assert set(report["cpu_s"]) >= {"p0", "p1", "redis", "bots"}
    assert report["reference"] is not None and report["reference"]["hands"] > 0
