"""The load tester's tournament mode against a real server process: a tournament created with
``python -m server tournament create``, 14 bots over two load-tester processes register, are
seated on two tables, balanced, moved to the final table and play to one winner (server clock
30x). The hands the bots count equal the hands the server stored."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path

from bots.launch import ServerProcess
from bots.loadtest import LoadConfig, run

ROOT = Path(__file__).resolve().parents[2]

CONFIG = """
name = "Load test"
profile = "cdc"
starting_stack = 3000
denominations = [25, 100, 500, 1000, 5000]
table_size = 6
final_table_size = 6
min_players = 2
late_registration_until_level = 0

[server]
action_seconds = 30
cut_seconds = 5
next_hand_seconds = 1
showdown_seconds = 1
start_when_registered = 14
""" + "".join(
    f"\n[[levels]]\nsb = {sb}\nbb = {2 * sb}\nminutes = 2\n" for sb in (50, 100, 200, 500, 1000)
)


def test_loadtest_plays_a_tournament_to_one_winner(tmp_path: Path) -> None:
    data = tmp_path / "data"
    config = tmp_path / "load.toml"
    config.write_text(CONFIG, encoding="utf-8")
    command = [sys.executable, "-m", "server", "tournament", "create", str(config)]
    created = subprocess.run(
        [*command, "--id", "lt", "--data", str(data)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "?tournament=lt" in created.stdout
    with ServerProcess(data, clock_speed=30) as server:
        report = run(
            LoadConfig(url=server.url, tournament="lt", players=14, processes=2, duration=120),
            progress_out=None,
        )
        assert "Traceback" not in server.stderr(), server.stderr()[-3000:]
        results = json.loads(server_get(server, "/api/tournaments/lt/results.json"))
    assert report["errors_total"] == 0, report["errors"]
    assert report["violations_total"] == 0, report["violation_examples"]
    t = report["tournament"]
    expected = {"id": "lt", "entrants": 14, "busted": 13, "finished": True, "lost": 0}
    assert {k: t[k] for k in expected} == expected, t
    assert t["states"] > 0 and 0 < t["state_bytes"] < t["bytes_in"]
    assert t["moves"] >= 14  # seated at the start, then balanced or broken to the final table
    db = sqlite3.connect(data / "brasseur.sqlite")
    stored = db.execute("SELECT COUNT(*) FROM events WHERE kind = 'hand_end'").fetchone()[0]
    assert report["hands"] == stored > 0
    assert report["actions"] > report["hands"]
    assert report["hands_cross_checked"] >= stored  # the bots compared notes on every hand
    places = sorted(int(row["place"]) for row in results["results"])
    assert len(places) == 14 and places.count(1) == 1  # (busts of equal stacks share a place)
    assert all(1 <= p <= 14 for p in places)


def server_get(server: ServerProcess, path: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}", timeout=10) as r:
        return str(r.read().decode())
