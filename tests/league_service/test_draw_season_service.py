"""A league's five-card draw cash season in the league service (issue 31): opened by a
``season_create`` with ``game: "draw"``, its tables created for draw only, each member's
draw capital an account of its own beside his hold'em capital, its standings its own.

fpc: « Les caves sont spécifiques à chaque jeu »; LE FIVE-CARD DRAW: « Chaque adhérent se
voit attribuer un capital de départ de 50 000 jetons », « L'adhérent ayant perdu la totalité
de son capital ne pourra plus participer aux sessions de Cash Game ».

The draw tables here are real cash TableActors configured as a draw season's tables (the
settings :meth:`SeasonCapital.new_table` gives); they deal hold'em until the table plays draw
(wired later): the money side tested here reads only the season and the capital."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from protocol import ProtocolError
from protocol import messages as m
from server.dealing import Signer
from server.engine.setup import Game, Structure
from server.league.capital_account import Stint
from server.league.capital_store import CapitalStore
from server.league.model import League, Season
from server.league.store import LeagueStore
from server.league_service import SeasonCapital
from server.table import commands as tc
from server.table.actor import TableActor
from server.table.clock import FakeClock
from server.table.config import TableConfig
from server.table.dealer import CsprngDealer
from tests.league_service.test_desk import World
from tests.table.helpers import RecordingClient, settle

CASH: dict[str, Any] = {"min_buyin": 500, "max_buyin": 5000, "hours": "always"}


def opened(w: World, **terms: Any) -> m.League:
    made = w.ask("ana", m.LeagueCreate(member=w.tokens["ana"], name="Les Potes"))
    return w.ask(
        "ana",
        m.SeasonCreate(
            member=w.tokens["ana"], league=made.league, name="Draw", points="capital", **terms
        ),
    )


def test_a_draw_season_opens_with_its_own_capital() -> None:
    w = World()
    league = opened(w, game="draw")
    [draw] = league.seasons
    assert (draw["game"], draw["structure"], draw["capital"]) == ("draw", "no_limit", 50_000)
    holdem = w.ask(
        "ana", m.SeasonCreate(member=w.tokens["ana"], league=league.league, name="Cash",
                              points="capital"),
    ).seasons  # fmt: skip
    assert [(s["game"], s["capital"]) for s in holdem] == [("draw", 50_000), ("holdem", 40_000)]


def test_bad_terms_are_refused_with_stable_codes() -> None:
    w = World()
    made = w.ask("ana", m.LeagueCreate(member=w.tokens["ana"], name="L"))
    cases = {
        ("capital", "stud", ""): "league.bad_game",
        ("capital", "draw", "spread"): "league.bad_betting",
        ("places:3,2", "draw", ""): "league.bad_game",
        ("places:3,2", "", "pot_limit"): "league.bad_betting",
    }
    for (points, game, structure), code in cases.items():
        message = m.SeasonCreate(
            member=w.tokens["ana"], league=made.league, name="S", points=points, game=game,
            structure=structure,
        )  # fmt: skip
        assert w.refused("ana", message) == code
    # nothing was opened; an old client's message (no game, no structure) is hold'em
    plain = m.SeasonCreate(member=w.tokens["ana"], league=made.league, name="S", points="capital")
    assert [s["game"] for s in w.ask("ana", plain).seasons] == ["holdem"]


def test_a_season_s_tables_deal_its_game() -> None:
    w = World()
    league = opened(w, game="draw", structure="pot_limit")
    draw_ref = f"{league.league}/{league.seasons[0]['id']}"
    cash = w.ask(
        "ana", m.SeasonCreate(member=w.tokens["ana"], league=league.league, name="C",
                              points="capital"),
    )  # fmt: skip
    holdem_ref = f"{league.league}/{cash.seasons[1]['id']}"
    capital = w.g.capital
    settings = capital.new_table("id-ana", draw_ref, "draw")
    assert settings["game"] == "draw" and settings["capital"] == 50_000
    assert settings["structure"] == "pot_limit"  # the season's, unless the table names one
    assert "structure" not in capital.new_table("id-ana", draw_ref, "draw", "no_limit")
    # a hold'em season's table: the settings it always had
    assert set(capital.new_table("id-ana", holdem_ref, "cash")) == {"league", "season", "capital"}
    refusals = [
        (draw_ref, "cash", ""),  # « Les caves sont spécifiques à chaque jeu »
        (holdem_ref, "draw", ""),
        (draw_ref, "draw", "fixed_limit"),
    ]
    codes = []
    for ref, game, structure in refusals:
        with pytest.raises(ProtocolError) as refused:
            capital.new_table("id-ana", ref, game, structure)
        codes.append(refused.value.code)
    assert codes == ["league.bad_game", "league.bad_game", "league.bad_betting"]


class Club:
    """One process: the leagues, the capital's file, a hold'em season S and a draw season D
    of league L."""

    def __init__(self, data: Path) -> None:
        data.mkdir(exist_ok=True)
        self.leagues = LeagueStore(data / "leagues.sqlite")
        self.leagues.add_league(
            League(id="L", name="Club", owner="ana", invite="i", members=frozenset({"ana", "bob"}))
        )
        self.leagues.add_season(Season(id="S", league="L", name="Cash", points="capital"))
        self.leagues.add_season(
            Season(id="D", league="L", name="Draw", points="capital", game=Game.DRAW)
        )
        self.capital = SeasonCapital(self.leagues, CapitalStore(data / "capital.sqlite"))
        self.signer = Signer.generate()

    def table(self, name: str, season: str, game: str) -> TableActor:
        extra = {"created_by": "127.0.0.1"} | self.capital.new_table("ana", f"L/{season}", game)
        cfg = TableConfig(
            table_id=name, profile="fpc", sb=25, bb=50, max_seats=6, cash=CASH, extra=extra
        )
        actor = TableActor(cfg, FakeClock(), CsprngDealer(self.signer))
        self.capital.follow(actor)
        actor.start()
        return actor


def buy(actor: TableActor, client: RecordingClient, amount: int) -> tc.Command:
    return tc.BuyIn(conn=actor.conn(client), seat=1, name=client.pid or "", amount=amount)


@pytest.mark.asyncio
async def test_a_member_who_lost_his_draw_capital_still_plays_hold_em(tmp_path: Path) -> None:
    club = Club(tmp_path / "p")
    draw, holdem = club.table("d1", "D", "draw"), club.table("t1", "S", "cash")
    assert draw.config.extra["capital"] == 50_000 and holdem.config.extra["capital"] == 40_000
    ana = RecordingClient(pid="m.ana")
    # her draw nights so far: 50,000 brought, nothing taken back (« la totalité »)
    club.capital.book.settle("D", "d0", {"ana": Stint(50_000, 0, 0)}, {})
    with pytest.raises(ProtocolError) as refused:
        club.capital.admit(draw, buy(draw, ana, 5_000))
    assert refused.value.code == "cash.capital"
    assert refused.value.message == "your capital is lost: no more cash play this season"
    # her hold'em capital is another account: she sits at a hold'em table
    granted = club.capital.admit(holdem, buy(holdem, ana, 5_000))
    holdem.post(granted, ana)
    await settle()
    [account] = club.capital.book.accounts("S")
    assert account.holds == () and account.stints["t1"].brought == 5_000
    # two general standings (« donnera le classement général »), one per game
    draw_rows = club.capital.standings("D", 50_000)
    holdem_rows = club.capital.standings("S", 40_000)
    assert [(r["member"], r["capital"], r["barred"]) for r in draw_rows] == [("ana", 0, True)]
    assert [(r["member"], r["capital"], r["barred"]) for r in holdem_rows] == [
        ("ana", 40_000, False)
    ]
    await draw.stop()
    await holdem.stop()


@pytest.mark.asyncio
async def test_a_draw_buy_in_is_reserved_from_the_draw_capital(tmp_path: Path) -> None:
    club = Club(tmp_path / "p")
    draw = club.table("d1", "D", "draw")
    ana = RecordingClient(pid="m.ana")
    command = club.capital.admit(draw, buy(draw, ana, 5_000))
    draw.post(command, ana)
    await settle()
    [account] = club.capital.book.accounts("D")
    assert account.stints["d1"] == Stint(5_000, 0, 5_000)
    assert club.capital.book.accounts("S") == []
    assert Structure(draw.config.extra.get("structure", "no_limit")) is Structure.NO_LIMIT
    await draw.stop()
