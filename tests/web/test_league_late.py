"""A league event entered late and re-entered from the browser (issue 15's Playwright
acceptance: "two members with accounts register, one late, one re-enters; standings appear
after the event"). The director schedules the event with one re-entry per player (tda 7: a
player « qui Ré-entre »; open while late registration is, fpc 2-2: to the end of level 2);
Ana and Bob register on time from the league page; Cat, once the event has started, finds
"Register (late)" on it and comes in; whoever busts first re-enters with the tournament
page's button; after the event, every page's standings are the server's, each player scored
on his best entry.

The server runs its clocks 80 times faster (levels of 25 minutes last 18.75 s, the late
registration 37.5 s: time enough for a page's click); the seats are played over the wire with
the tokens the pages got (Cat all-in every hand, Ana and Bob call), as in
tests/web/test_leagues.py."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .conftest import Client, WebServer, _free_port, _require_browser, serve, wait_until
from .test_league_cup import Member
from .test_leagues import PHONE, Seat, create_account, get_json, standings_shown

OpenClient = Callable[..., Client]
CLOCK = 80


@pytest.fixture(scope="module")
def late_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    _require_browser()
    data = tmp_path_factory.mktemp("late-league-data")
    port = _free_port()
    args = ["--port", str(port), "--data", str(data), "--clock-speed", str(CLOCK)]
    with serve(args, data):
        yield WebServer(port=port, invite_link="", data=data)


class Caller(Seat):
    """A seat that checks or calls, never raises (the all-in player's opponents)."""

    def _take(self, msg: dict[str, Any]) -> None:
        if msg.get("t") == "turn":
            key = (str(msg["table"]), int(msg["hand"]), int(msg.get("decision", -1)))
            if key in self.decided:
                return
            self.decided.add(key)
            verb = "check" if msg.get("can_check") else "call"
            self.send(
                t="act", table=msg["table"], hand=msg["hand"], verb=verb, decision=msg["decision"]
            )
            return
        super()._take(msg)


def token_of(client: Client, tournament: str) -> str:
    kept = client.page.evaluate(
        "(t) => localStorage.getItem('brasseur.tournament.' + t)", tournament
    )
    return str(json.loads(kept)["token"])


def test_one_registers_late_one_re_enters_and_the_standings_follow(
    late_server: WebServer, open_client: OpenClient
) -> None:
    server = late_server
    olga = Member(server.port, "olga_late")
    pages: dict[str, Client] = {}
    seats: list[Seat] = []
    try:
        made = olga.ask(t="league_create", member=olga.token, name="Les Retardataires")
        league, invite = made["league"], made["invite"]
        season = olga.ask(
            t="season_create", member=olga.token, league=league, name="2026",
            points="places:10,6,3",
        )  # fmt: skip
        sid = season["seasons"][0]["id"]
        for login, name in (("ana_late", "Ana"), ("bob_late", "Bob"), ("cat_late", "Cat")):
            client = open_client(login, viewport=PHONE)
            client.page.goto(f"{server.base}/?league={league}&join={invite}")
            client.page.wait_for_selector("#lg-login", state="visible")
            create_account(client.page, login, name)
            client.page.wait_for_selector(".lg-season")
            pages[name] = client
        starts = int(time.time()) + 8
        created = olga.ask(
            t="league_event_create", member=olga.token, league=league, season=sid,
            name="Etape tardive", kind="tournament", structure="tour_des_potes_bb_ante",
            starts_at=starts, reentries=1,
        )  # fmt: skip
        event = created["seasons"][0]["events"][0]
        tid = event["tournament"]
        assert event["reentries"] == 1
        for name in ("Ana", "Bob"):  # on time, from the league page
            p = pages[name].page
            p.wait_for_selector(f".lg-event[data-tournament='{tid}'] button.lg-register")
            assert "re-entries: 1" in p.inner_text(f".lg-event[data-tournament='{tid}']")
            p.click(f".lg-event[data-tournament='{tid}'] button.lg-register")
            p.wait_for_selector(f".lg-event[data-tournament='{tid}'] .lg-registered")
            seats.append(Caller(server.port, tid, token_of(pages[name], tid)))

        # started: Cat finds "Register (late)" on the league page (fpc 2-2)
        cat = pages["Cat"].page
        late = cat.wait_for_selector(
            f".lg-event[data-tournament='{tid}'][data-status='running'] button.lg-late",
            timeout=30_000,
        )
        assert late is not None
        pages["Cat"].shot("league-late-registration-360x640", full_page=False)
        late.click()
        cat.wait_for_selector(f".lg-event[data-tournament='{tid}'] .lg-registered")
        seats.append(Seat(server.port, tid, token_of(pages["Cat"], tid)))  # all-in
        assert get_json(server, f"/api/tournaments/{tid}")["entries"] == 3

        # every page on the tournament page; whoever busts first re-enters from it
        for client in pages.values():
            client.page.click(f".lg-event[data-tournament='{tid}'] a.lg-follow")
            client.page.wait_for_selector("#tournament-view", state="visible")

        def busted() -> Client | None:
            return next(
                (c for c in pages.values() if c.page.locator("#t-reenter").is_visible()), None
            )

        first = wait_until(busted, "a bust with a re-entry open", 60)
        first.shot("league-may-re-enter-360x640", full_page=False)
        first.page.click("#t-reenter")
        wait_until(
            lambda: get_json(server, f"/api/tournaments/{tid}")["entries"] == 4, "the re-entry"
        )
        wait_until(
            lambda: first.page.get_attribute("#t-you", "data-out") == "false", "back in play"
        )
        # his new entry played over the wire too (the token follows him to his new seat)
        name = next(n for n, c in pages.items() if c is first)
        seats.append(Seat(server.port, tid, token_of(first, tid)))
        first.shot(f"league-re-entered-{name}-360x640", full_page=False)

        # the event ends (after late registration closes); the standings on every page
        for client in pages.values():
            client.page.goto(f"{server.base}/?league={league}")
        pages["Ana"].page.wait_for_selector(
            f".lg-event[data-tournament='{tid}'][data-status='finished']", timeout=150_000
        )
        results = get_json(server, f"/api/tournaments/{tid}/results.json")["results"]
        assert sorted(r["entry"] for r in results) == [1, 1, 1, 2]  # four entries, one re-entry
        doc = get_json(server, f"/api/leagues/{league}/seasons/{sid}/standings.json")
        rows = doc["standings"]
        assert sorted(doc["names"].values()) == ["Ana", "Bob", "Cat"]
        assert len(rows) == 3  # one row a member: his best entry counts
        for client in pages.values():
            wait_until(lambda c=client: len(standings_shown(c.page)) == 3, "the standings", 20)
            shown = standings_shown(client.page)
            for row, want in zip(shown, rows, strict=True):
                assert row["player"] == want["player_id"] and row["value"] == str(want["points"])
        pages["Cat"].shot("league-late-standings-360x640", full_page=True)
    finally:
        for seat in seats:
            seat.close()
        olga.close()
