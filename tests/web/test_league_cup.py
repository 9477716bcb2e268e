"""A league's heads-up cup in the browser (issue 15, fpc part C « LA COUPE HEADS-UP »): four
members register (one of them, Ana, on a phone, the others over the wire); at its time the
cup is drawn and the league page draws the bracket: a column per round, every match with its
players' names and scores, inside the phone's width; Ana's own match has "Play my match",
which seats her at her game's table (the tournament page, her seat shown). The games are
played to the end (all-in seats over the wire, Ana's too once she left the page); the page's
bracket follows the server's after every game, and says the cup's winner.

The server runs its clocks 400 times faster (tests/web/test_leagues.py): a page cannot act
in time, so the games are played by websocket seats with the members' tokens."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

import msgpack
from websockets.sync.client import ClientConnection, connect

from .conftest import Client, WebServer, wait_until
from .test_leagues import PASSWORD, PHONE, Seat, create_account, league_server

OpenClient = Callable[..., Client]
__all__ = ["league_server"]  # the fixture, shared with tests/web/test_leagues.py


class Member:
    """A member over the wire: his session, league requests, his cup games played."""

    def __init__(self, port: int, login: str, token: str | None = None, ident: str = "") -> None:
        self.port = port
        self.stack = contextlib.ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(
            connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10)
        )
        self.lock = threading.Lock()
        self.ids = 100
        self.send(t="hello", version=1, nickname=login, **({"member": token} if token else {}))
        if token is None:
            account = self.ask(t="account_register", login=login, password=PASSWORD)
            token, ident = str(account["token"]), str(account["member"])
        self.token = token
        self.ident = ident
        """His member id (the cup's bracket names members by it)."""
        self.seats: list[Seat] = []

    def send(self, **message: Any) -> None:
        self.ws.send(msgpack.packb(message))

    def ask(self, **message: Any) -> dict[str, Any]:
        """A request and its answer (the first frame with its ``ref``); an error raises."""
        with self.lock:
            self.ids += 1
            ref = self.ids
            self.send(**message, id=ref)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                msg = msgpack.unpackb(self.ws.recv(timeout=15))
                if msg.get("ref") == ref:
                    assert msg.get("t") != "error", msg
                    return dict(msg)
        raise AssertionError(f"no answer to {message}")

    def league(self, league: str) -> dict[str, Any]:
        return self.ask(t="league_get", member=self.token, league=league)

    def play(self, tournament: str) -> None:
        """Take his seat in a cup game (his entry is the cup's) and play it all-in: asked on
        a connection of its own (``register`` makes the asking connection follow the seat),
        then played by a :class:`Seat` with the token."""
        asking = Member(self.port, "seat", self.token, self.ident)
        try:
            got = asking.ask(t="register", tournament=tournament)
        finally:
            asking.close()
        self.seats.append(Seat(self.port, tournament, str(got["token"])))

    def close(self) -> None:
        for seat in self.seats:
            seat.close()
        with contextlib.suppress(Exception):
            self.stack.close()


def cup_of(league: dict[str, Any]) -> dict[str, Any]:
    return next(e for s in league["seasons"] for e in s["events"] if e["kind"] == "cup")


def shown_bracket(page: Any) -> dict[str, list[tuple[str, str]]]:
    """Each match on the page: its players' names and scores as shown."""
    shown: dict[str, list[tuple[str, str]]] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.cup-match')].map((m) =>
          [m.dataset.match, [...m.querySelectorAll('.cup-player')].map((p) =>
            [p.querySelector('.cup-name').textContent,
             p.querySelector('.cup-score').textContent])]))"""
    )
    return {k: [(str(a), str(b)) for a, b in v] for k, v in shown.items()}


def server_bracket(cup: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
    """The same from the server's view of the cup."""
    names = cup["names"]
    out: dict[str, list[tuple[str, str]]] = {}
    for x in cup["bracket"]["matches"]:
        rows = []
        for i, p in enumerate(x["players"]):
            name = names.get(p, p) if p else "(bye)" if x["bye"] and i == 1 else "…"
            rows.append((name, "" if x["bye"] else str(x["score"][i])))
        out[x["match_id"]] = rows
    return out


def test_a_cup_bracket_follows_the_games_and_a_member_plays_his_match_from_it(
    league_server: WebServer, open_client: OpenClient
) -> None:
    port = league_server.port
    ana = open_client("ana-cup", viewport=PHONE)
    page = ana.page
    page.goto(league_server.base + "/")
    create_account(page, "ana_cup", "Ana")
    session = page.evaluate("JSON.parse(localStorage.getItem('brasseur.member'))")
    token = str(session["token"])
    desk = Member(port, "Ana", token, str(session["member"]))
    others = [Member(port, login) for login in ("bob_cup", "cat_cup", "dan_cup")]
    members = [desk, *others]
    try:
        made = desk.ask(t="league_create", member=token, name="Club de la coupe")
        league = made["league"]
        for other in others:
            other.ask(t="league_join", member=other.token, invite=made["invite"])
        season = desk.ask(
            t="season_create", member=token, league=league, name="2026", points="places:3,2,1"
        )
        sid = season["seasons"][0]["id"]
        starts = int(time.time()) + 6
        created = desk.ask(
            t="league_event_create", member=token, league=league, season=sid, name="Coupe",
            kind="cup", structure="", starts_at=starts,
        )  # fmt: skip
        tid = cup_of(created)["tournament"]
        for member in members:
            member.ask(t="register", tournament=tid)

        page.goto(f"{league_server.base}/?league={league}")
        page.wait_for_selector(".cup-match >> nth=1", timeout=30_000)  # drawn at its time
        ana.shot("cup-drawn-360x640", full_page=True)
        box = page.locator(".cup").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE[0]
        cup = cup_of(desk.league(league))["cup"]
        assert shown_bracket(page) == server_bracket(cup)

        # Ana's match: "Play my match" seats her at her game (the tournament page)
        page.click(".cup-play")
        page.wait_for_selector("#tournament-view", state="visible", timeout=15_000)
        ana_match = next(
            x for x in cup["bracket"]["matches"] if desk.ident in x["players"] and not x["bye"]
        )
        assert cup["games"][ana_match["match_id"]] in page.evaluate("location.search")
        wait_until(lambda: page.query_selector(".seat.you"), "Ana's seat at her game", 20)
        ana.shot("cup-my-game-360x640", full_page=False)

        # every game played all-in over the wire (Ana's seat too, with her token)
        page.goto(f"{league_server.base}/?league={league}")
        joined: set[tuple[str, str]] = set()
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline:
            view = cup_of(desk.league(league))
            if view["status"] == "finished":
                break
            for member in members:
                ident = member.ident
                for match, game in view["cup"].get("games", {}).items():
                    players = next(
                        x for x in view["cup"]["bracket"]["matches"] if x["match_id"] == match
                    )["players"]
                    if ident in players and (member.token, game) not in joined:
                        joined.add((member.token, game))
                        member.play(game)
            time.sleep(0.3)
        final = cup_of(desk.league(league))
        assert final["status"] == "finished", final
        # the page follows: the same bracket, and the winner said
        champion = final["cup"]["names"][final["cup"]["bracket"]["champion"]]
        page.wait_for_selector(f".cup-champion >> text={champion}", timeout=15_000)
        assert shown_bracket(page) == server_bracket(final["cup"])
        ana.shot("cup-finished-360x640", full_page=True)
    finally:
        for member in members:
            member.close()
