"""A league's five-card draw season (issue 31): its game is stored with it, its capital is
the fpc draw section's 50,000 in an account of its own, and seasons stored before draw
existed load as hold'em (an older SQLite file, a Redis hash without the new fields).

fpc: « Les caves sont spécifiques à chaque jeu »; LE FIVE-CARD DRAW: « Chaque adhérent se
voit attribuer un capital de départ de 50 000 jetons »."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
import redis

from server.engine.setup import Game, Structure
from server.league.capital_account import Hold, Stint
from server.league.capital_store import CapitalRefused
from server.league.model import (
    FPC_CAPITAL,
    FPC_DRAW_CAPITAL,
    League,
    LeagueRefusal,
    Season,
    capital_start,
    check_terms,
)
from server.league.redis_store import RedisLeagueStore
from server.league.store import LeagueStore

from .test_capital import Make, make  # noqa: F401 (the fixture: one store, two handles)

LEAGUE = League(
    id="l1", name="Les Potes", owner="ana", invite="inv-1", members=frozenset({"ana"}), created=1.5
)
HOLDEM = Season(id="s1", league="l1", name="Cash", points="capital", created=2.0)
DRAW = Season(
    id="s2",
    league="l1",
    name="Draw",
    points="capital",
    created=3.0,
    game=Game.DRAW,
    structure=Structure.POT_LIMIT,
)


def test_a_draw_season_s_capital_is_the_draw_section_s() -> None:
    # fpc LE CASH GAME: 40,000; fpc LE FIVE-CARD DRAW: 50,000
    assert capital_start("capital") == FPC_CAPITAL == 40_000
    assert capital_start("capital", Game.DRAW) == FPC_DRAW_CAPITAL == 50_000
    assert capital_start("capital:6000", Game.DRAW) == 6000
    assert HOLDEM.capital() == 40_000 and DRAW.capital() == 50_000
    assert Season(id="p", league="l1", name="P", points="places:3,2").capital() is None


def test_the_terms_of_a_season_are_checked() -> None:
    assert check_terms("capital", "", "") == (Game.HOLDEM, Structure.NO_LIMIT)
    assert check_terms("capital", "draw", "pot_limit") == (Game.DRAW, Structure.POT_LIMIT)
    assert check_terms("places:3,2", "holdem", "no_limit") == (Game.HOLDEM, Structure.NO_LIMIT)
    cases = {
        ("capital", "stud", ""): "league.bad_game",
        ("capital", "draw", "fixed_limit"): "league.bad_betting",
        # five-card draw is a cash game at the fpc: its season counts capital
        ("places:3,2", "draw", ""): "league.bad_game",
        ("fpc_sit_and_go", "", "pot_limit"): "league.bad_betting",
    }
    for (points, game, structure), code in cases.items():
        with pytest.raises(LeagueRefusal) as refused:
            check_terms(points, game, structure)
        assert refused.value.code == code


def test_a_draw_season_is_stored_with_its_game(tmp_path: Path) -> None:
    store = LeagueStore(tmp_path / "leagues.sqlite")
    store.add_league(LEAGUE)
    store.add_season(HOLDEM)
    store.add_season(DRAW)
    store.close()
    again = LeagueStore(tmp_path / "leagues.sqlite")
    assert again.season("s2") == DRAW and again.season("s1") == HOLDEM
    assert [s.game for s in again.seasons("l1")] == [Game.HOLDEM, Game.DRAW]
    again.close()


def test_a_file_written_before_draw_loads_its_seasons_as_hold_em(tmp_path: Path) -> None:
    path = tmp_path / "leagues.sqlite"
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE leagues (id TEXT PRIMARY KEY, name TEXT NOT NULL, owner TEXT NOT NULL, "
        "invite TEXT NOT NULL UNIQUE, created REAL NOT NULL)"
    )
    db.execute(
        "CREATE TABLE seasons (id TEXT PRIMARY KEY, league TEXT NOT NULL REFERENCES "
        "leagues(id), name TEXT NOT NULL, points TEXT NOT NULL, best_of INTEGER, "
        "created REAL NOT NULL)"
    )
    db.execute("INSERT INTO leagues VALUES ('l1', 'Les Potes', 'ana', 'inv-1', 1.5)")
    db.execute("INSERT INTO seasons VALUES ('s1', 'l1', 'Cash', 'capital', NULL, 2.0)")
    db.commit()
    db.close()
    store = LeagueStore(path)
    assert store.season("s1") == HOLDEM
    assert store.season("s1").capital() == 40_000  # type: ignore[union-attr]
    store.add_season(DRAW)  # the older file takes a draw season once opened
    assert store.season("s2") == DRAW
    store.close()


def test_redis_keeps_a_draw_season_and_reads_an_old_hash_as_hold_em(
    redis_url: str, redis_prefix: str
) -> None:
    client = redis.Redis.from_url(redis_url)
    store = RedisLeagueStore(client, redis_prefix)
    store.add_league(LEAGUE)
    store.add_season(HOLDEM)
    store.add_season(DRAW)
    assert store.season("s2") == DRAW and store.season("s1") == HOLDEM
    # a hold'em season's hash is as before draw existed: no game, no structure
    fields = {f.decode() for f in client.hkeys(f"{redis_prefix}:league:s:s1")}
    assert fields == {"id", "league", "name", "points", "best_of", "created"}
    assert [s.id for s in store.seasons("l1")] == ["s1", "s2"]
    client.close()


def test_a_member_s_draw_capital_is_not_his_hold_em_capital(make: Make) -> None:  # noqa: F811
    """One account per member and per season: losing the draw capital bars him from the
    draw tables only (« L'adhérent ayant perdu la totalité de son capital ne pourra plus
    participer »)."""
    book = make()
    book.settle(DRAW.id, "d1", {"ana": Stint(50_000, 0, 0)}, {})  # lost at draw
    with pytest.raises(CapitalRefused) as refused:
        book.reserve(DRAW.id, "ana", 50_000, Hold("h1", "d2", 5_000))
    assert refused.value.message == "your capital is lost: no more cash play this season"
    assert book.reserve(HOLDEM.id, "ana", 40_000, Hold("h2", "t1", 5_000)) == 40_000
    [draw] = book.accounts(DRAW.id)
    [holdem] = book.accounts(HOLDEM.id)
    assert draw.holds == () and [h.id for h in holdem.holds] == ["h2"]


def test_two_caves_at_once_against_the_draw_capital_spend_it_once(make: Make) -> None:  # noqa: F811
    """« Le joueur ne peut en aucun cas engager une valeur de jetons supérieure à son
    capital »: 6,000 of draw capital left, two caves of 5,000 asked at two draw tables at
    one instant through two handles (two processes' connections); his hold'em capital
    beside it is untouched."""
    books = [make(), make()]
    for round_ in range(10):
        season = f"{DRAW.id}-{round_}"
        books[0].settle(season, "d0", {"ana": Stint(44_000, 0, 0)}, {})
        results = ["", ""]
        start = threading.Barrier(2)

        def buy(
            i: int,
            season: str = season,
            results: list[str] = results,
            start: threading.Barrier = start,
        ) -> None:
            start.wait()
            try:
                books[i].reserve(season, "ana", 50_000, Hold(f"{season}-{i}", f"d{i + 1}", 5_000))
                results[i] = "granted"
            except CapitalRefused:
                results[i] = "refused"

        threads = [threading.Thread(target=buy, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == ["granted", "refused"], results
        [account] = books[1].accounts(season)
        assert sum(h.amount for h in account.holds) == 5_000
    assert books[0].accounts(HOLDEM.id) == []
