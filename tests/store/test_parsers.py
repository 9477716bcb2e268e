"""Our PokerStars hand histories, read by two independent, maintained parsers.

* **PokerKit 0.7.7** (``pokerkit.notation.PokerStarsParser``) replays every hand through its
  own rules engine: a hand it cannot replay (an action out of turn, a bet it finds illegal)
  is rejected. Its PokerStars parser ignores antes (``ANTE_POSTING`` matches nothing): the
  subclass below only gives it the ante lines, nothing else is changed.
* **pokerdf 1.8.0** (``pokerdf.core.read_and_convert.apply_regex``), the parser behind a
  tracking pipeline: one row per player and hand (stack, posts, actions, pot, collected).

The hands are real records of the pure table (tests/store/playhands.py): friends tables with
every ante format (none, classic, button, big blind), a tournament table (its layout, buy-in
and level), and a player's own export (``Dealt to`` lines), played with folds and raises out
of turn, undersized chips facing a bet (cdc 9.12), all-ins, side pots and short blinds.

Every hand parses with both, and each player's stack at the end of a hand, as PokerKit
computes it from the text, is his stack in the next hand (and the record's final stack),
except where a documented rule differs from PokerKit's assumption (docs/protocol.md, "Hand
histories"):

* **the odd chip**: PokerKit splits a tied pot to the unit (1), the profiles give whole
  chips of the smallest denomination in play (cdc 10.8, tda 19, casino: the whole
  remainder to one player);
* **dead chips**: an undersized chip put in facing a bet, then a fold (cdc 9.12): the chip
  stays in the pot, and PokerStars text has no line for it, so PokerKit counts the player
  that much richer and the pot's winners that much poorer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from server.store.export import export_page, to_pokerstars
from tests.store.playhands import Session, play_session

pokerkit = pytest.importorskip("pokerkit")
pokerdf = pytest.importorskip("pokerdf.core.read_and_convert")
pokerstars = pytest.importorskip("poker.room.pokerstars")
poker_hand = pytest.importorskip("poker.hand")

# PokerKit warns of what is legal but unusual (a fold facing no bet: a fold out of turn
# taking effect at the player's turn, cdc 9.3) and of its own parser's time-zone field
pytestmark = [
    pytest.mark.filterwarnings("ignore:There is no reason for this player to fold"),
    pytest.mark.filterwarnings("ignore:The field 'time_zone_abbreviation' is an unexpected"),
]

UNIT = 25
"""The smallest chip of the default denominations: the odd chip of a split."""


class _Parser(pokerkit.notation.PokerStarsParser):  # type: ignore[misc]
    """PokerKit's parser, told where the antes are (it ignores them by default)."""

    ANTE_POSTING = re.compile(r"(?P<player>.+): posts the ante (?P<ante>[0-9.]+)")


SESSIONS: dict[str, dict[str, Any]] = {
    "friends": {"seed": 11},
    "classic antes": {"seed": 12, "ante": 25, "ante_format": "classic"},
    "button ante": {"seed": 13, "ante": 50, "ante_format": "button"},
    "big blind ante": {"seed": 14, "ante": 100, "ante_format": "big_blind"},
    "tournament": {
        "seed": 15,
        "ante": 100,
        "ante_format": "big_blind",
        "table_id": "2026-3",
        "extra": {"tournament": "2026", "tournament_name": "Coupe", "buy_in": 100},
    },
}
HANDS = 60


@pytest.fixture(scope="module")
def sessions() -> dict[str, Session]:
    return {name: play_session(hands=HANDS, **kw) for name, kw in SESSIONS.items()}


def _hands(text: str) -> Iterator[tuple[Any, Any]]:
    """PokerKit's hand histories of ``text``, each with its final state; raises on a hand
    it cannot parse or replay."""
    for hh in _Parser()(text, error_status=True):
        states = list(hh)  # every state of the replay: it raises on an illegal action
        yield hh, states[-1]


def _documented(record: dict[str, Any], got: dict[str, int], want: dict[str, int]) -> bool:
    """Whether PokerKit's final stacks ``got`` differ from the record's ``want`` only as the
    module docstring says they may."""
    if sum(got.values()) != sum(want.values()):
        return False
    dead: dict[str, int] = {}
    for a in record["actions"]:
        if a["action"] == "fold" and a["added"] > 0:
            dead[a["name"]] = dead.get(a["name"], 0) + a["added"]
    winners = sum(len(p["shares"]) for p in record["pots"])
    odd = any(len({s for _, s in p["shares"]}) > 1 for p in record["pots"])
    slack = UNIT * winners if odd else 0
    for name, value in got.items():
        off = value - want[name] - dead.get(name, 0)
        if abs(off) > slack + sum(dead.values()):
            return False
    return all(abs(got[name] - want[name] - chips) <= slack for name, chips in dead.items())


def _own(session: Session, player: str, records: list[dict[str, Any]] | None = None) -> str:
    """``player``'s own export of ``records`` (all the session's by default)."""
    records = session.records if records is None else records
    body, count = export_page(records, "txt", max_bytes=1 << 30, mine=session.holes[player])
    assert count == len(records)
    return body.decode()


def _check_with_pokerkit(records: list[dict[str, Any]], text: str) -> dict[str, int]:
    """Every hand replays; stacks follow from hand to hand. Returns counts of the
    documented differences met."""
    parsed = list(_hands(text))
    assert len(parsed) == len(records)
    met = {"exact": 0, "documented": 0}
    for k, (record, (hh, state)) in enumerate(zip(records, parsed, strict=True)):
        starts = {p["name"]: p["stack"] for p in record["players"]}
        assert dict(zip(hh.players, hh.starting_stacks, strict=True)) == starts
        got = dict(zip(hh.players, state.stacks, strict=True))
        want = {p["name"]: record["final_stacks"][str(p["seat"])] for p in record["players"]}
        if got == want:
            met["exact"] += 1
        else:
            assert _documented(record, got, want), (record["hand"], got, want)
            met["documented"] += 1
        if k + 1 < len(records):  # the next hand starts where this one ended
            following = {p["name"]: p["stack"] for p in records[k + 1]["players"]}
            for name, stack in following.items():
                if name in want:
                    assert stack == want[name], (record["hand"], name)
    return met


def _check_with_pokerdf(records: list[dict[str, Any]], text: str) -> Any:
    frame = pokerdf.apply_regex(text)
    by_hand = {hand_id: rows for hand_id, rows in frame.groupby("HandID")}
    assert len(by_hand) == len(records)
    for record, hand_id in zip(records, list(dict.fromkeys(frame["HandID"])), strict=True):
        rows = by_hand[hand_id]
        assert set(rows["Player"]) == {p["name"] for p in record["players"]}
        stacks = dict(zip(rows["Player"], rows["Stack"], strict=True))
        assert stacks == {p["name"]: float(p["stack"]) for p in record["players"]}
        total = sum(p["amount"] for p in record["pots"])
        assert set(rows["TotalPotLog"]) == {float(total)}, record["hand"]
        won: dict[str, float] = {}
        names = {p["seat"]: p["name"] for p in record["players"]}
        for pot in record["pots"]:
            for seat, share in pot["shares"]:
                won[names[seat]] = won.get(names[seat], 0.0) + share
        collected = {
            name: value
            for name, value in zip(rows["Player"], rows["Balance"], strict=True)
            if value == value and value  # NaN: did not collect
        }
        assert collected == {n: v for n, v in won.items() if v}, record["hand"]
    return frame


@pytest.mark.parametrize("name", list(SESSIONS))
def test_every_hand_replays_in_pokerkit_and_stacks_follow(
    sessions: dict[str, Session], name: str
) -> None:
    session = sessions[name]
    met = _check_with_pokerkit(session.records, to_pokerstars(session.records))
    assert met["exact"] > met["documented"]  # differences stay the documented exceptions


def test_every_tournament_hand_reads_in_pokerdf(sessions: dict[str, Session]) -> None:
    """pokerdf reads a player's own tournament histories only (its blinds come from the
    ``Level`` part of the header, its owner from the ``Dealt to`` line): the friends tables'
    cash layout is read by pokerregion's parser below."""
    session = sessions["tournament"]
    player = max(session.holes, key=lambda p: len(session.holes[p]))
    mine = session.holes[player]
    records = [r for r in session.records if r["hand"] in mine]
    frame = _check_with_pokerdf(records, _own(session, player, records))
    assert set(frame["Modality"]) == {"Hold'em No Limit"}


@pytest.mark.parametrize("name", [n for n in SESSIONS if n != "tournament"])
def test_friends_hands_read_in_pokerregions_parser(sessions: dict[str, Session], name: str) -> None:
    """pokerregion's ``poker`` 0.30.0 (``PokerStarsHandHistory``) reads the cash layout of a
    friends table, hand by hand, when it has a hero: a player's own export. It sees a play
    money cash game, the blinds, the date, every seat and stack, the hero's cards and the
    total pot."""
    session = sessions[name]
    player = max(session.holes, key=lambda p: len(session.holes[p]))
    mine = session.holes[player]
    read = 0
    for record in session.records:
        if record["hand"] not in mine:
            continue
        body, _ = export_page([record], "txt", max_bytes=1 << 30, mine=mine)
        history = pokerstars.PokerStarsHandHistory(body.decode())
        history.parse()
        assert str(history.game_type) == "Cash game" and history.tournament_ident is None
        assert (history.sb, history.bb) == (50, 100)
        seated = {p.name: p.stack for p in history.players if not p.name.startswith("Empty")}
        assert seated == {p["name"]: p["stack"] for p in record["players"]}
        seat, cards = mine[record["hand"]]
        assert history.hero.seat == seat
        assert history.hero.combo == poker_hand.Combo("".join(cards))
        assert history.total_pot == sum(p["amount"] for p in record["pots"])
        read += 1
    assert read == len(mine) > 10


def test_tournament_layout_is_read_as_a_tournament(sessions: dict[str, Session]) -> None:
    session = sessions["tournament"]
    record = session.records[0]
    assert record["tournament"] == {
        "id": "2026",
        "name": "Coupe",
        "buyin": 100,
        "level": 1,
        "table_number": 3,
    }
    text = to_pokerstars(session.records)
    first = text.splitlines()[0]
    assert ": Tournament #2026, 100+0 Hold'em No Limit - Level I (50/100) - " in first
    assert text.splitlines()[1].startswith("Table '2026 3' 6-max Seat #")
    player = max(session.holes, key=lambda p: len(session.holes[p]))
    records = [r for r in session.records if r["hand"] in session.holes[player]]
    frame = pokerdf.apply_regex(_own(session, player, records))
    assert set(frame["TournID"]) == {"2026"}
    assert set(frame["BuyIn"]) == {"100+0"}
    assert set(frame["Level"]) == {"I"}
    assert set(frame["TableID"]) == {"3"}


@pytest.mark.parametrize("name", ["friends", "tournament"])
def test_own_hands_export_has_the_players_cards(sessions: dict[str, Session], name: str) -> None:
    """A player's own export: ``Dealt to`` him in every hand he was dealt, with his cards;
    both parsers read it (PokerKit deals the cards to him), stacks still follow."""
    session = sessions[name]
    player = max(session.holes, key=lambda p: len(session.holes[p]))
    mine = session.holes[player]
    text = _own(session, player)
    dealt = re.findall(r"^Dealt to (.+) \[(\S\S) (\S\S)\]$", text, flags=re.MULTILINE)
    assert len(dealt) == len(mine)
    by_hand = {r["hand"]: r for r in session.records}
    for (hero, a, b), (hand, (seat, cards)) in zip(dealt, sorted(mine.items()), strict=True):
        names = {p["seat"]: p["name"] for p in by_hand[hand]["players"]}
        assert (hero, [a, b]) == (names[seat], cards)
    _check_with_pokerkit(session.records, text)
    assert to_pokerstars(session.records).count("Dealt to") == 0  # anonymous: none


def test_the_sessions_hold_what_the_readers_must_cope_with(sessions: dict[str, Session]) -> None:
    """The hands above are not easy ones (else the test proves little)."""
    records = [r for s in sessions.values() for r in s.records]
    actions = [a for r in records for a in r["actions"]]
    gestures: dict[str, int] = {}
    for s in sessions.values():
        for kind, n in s.gestures.items():
            gestures[kind] = gestures.get(kind, 0) + n
    assert gestures["undersized_chip"] >= 20 and gestures["oot_fold"] >= 20
    assert sum(1 for a in actions if a.get("out_of_turn")) >= 20  # folds out of turn
    assert sum(1 for r in records if len(r["pots"]) > 1) >= 20  # side pots
    assert {r["blinds"]["ante_format"] for r in records} == {
        "none",
        "classic",
        "button",
        "big_blind",
    }
    short_bb = [a for a in actions if a["action"] == "post_bb" and a["allin"] and a["added"] < 100]
    assert short_bb  # a big blind posted short, all-in: the player busts or doubles
    assert any(a["action"] == "fold" and a["added"] > 0 for a in actions)  # dead chips
