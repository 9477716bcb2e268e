"""Two caves asked at once against a member's five-card draw capital, from two real OS
processes (issue 31): one SQLite file shared by two processes, and one real Redis behind two
processes. Six thousand of draw capital left, two caves of 5,000 at two draw tables at one
instant: one is granted, the other refused ``cash.capital``; 5,000 set aside, never 10,000.
His hold'em capital, another account (« Les caves sont spécifiques à chaque jeu »), is not
touched.

fpc LE FIVE-CARD DRAW: « La cave est de 5 000 jetons »; « Le joueur ne peut en aucun cas
engager une valeur de jetons supérieure à son capital »."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import pytest
import redis

from server.league.capital_account import Hold, Stint
from server.league.capital_store import CapitalBook, CapitalRefused, CapitalStore
from server.league.model import FPC_DRAW_CAPITAL
from server.league.redis_capital import RedisCapital

ROUNDS = 8
CAVE = 5_000


def _book(where: dict[str, str]) -> CapitalBook:
    if "path" in where:
        return CapitalStore(where["path"])
    return RedisCapital(redis.Redis.from_url(where["url"]), where["prefix"])


def _player(where: dict[str, str], i: int, start: Any, results: Any) -> None:
    """One process: a draw table's cave for ana in each round, all at the barrier."""
    book = _book(where)
    for round_ in range(ROUNDS):
        start.wait()
        try:
            season = f"D{round_}"
            book.reserve(season, "ana", FPC_DRAW_CAPITAL, Hold(f"{season}-{i}", f"d{i}", CAVE))
            results.put((round_, "granted"))
        except CapitalRefused:
            results.put((round_, "refused"))
    book.close()


def _race(where: dict[str, str]) -> None:
    book = _book(where)
    for round_ in range(ROUNDS):  # her draw nights so far: 44,000 lost, 6,000 left
        book.settle(f"D{round_}", "d-old", {"ana": Stint(44_000, 0, 0)}, {})
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(2)
    results = context.Queue()
    players = [context.Process(target=_player, args=(where, i, start, results)) for i in range(2)]
    for p in players:
        p.start()
    answers: dict[int, list[str]] = {}
    for _ in range(2 * ROUNDS):
        round_, answer = results.get(timeout=60)
        answers.setdefault(round_, []).append(answer)
    for p in players:
        p.join(timeout=60)
        assert p.exitcode == 0
    for round_ in range(ROUNDS):
        assert sorted(answers[round_]) == ["granted", "refused"], answers
        [account] = book.accounts(f"D{round_}")
        assert sum(h.amount for h in account.holds) == CAVE
    # the hold'em capital is another account: untouched, all of it free
    assert book.accounts("S") == []
    assert book.reserve("S", "ana", 40_000, Hold("h", "t1", 40_000)) == 40_000
    book.close()


def test_two_processes_on_one_sqlite_file_spend_the_draw_capital_once(tmp_path: Path) -> None:
    path = tmp_path / "capital.sqlite"
    CapitalStore(path).close()  # the schema, before two processes open it
    _race({"path": str(path)})


@pytest.mark.usefixtures("redis_url")
def test_two_processes_on_one_redis_spend_the_draw_capital_once(
    redis_url: str, redis_prefix: str
) -> None:
    _race({"url": redis_url, "prefix": redis_prefix})
