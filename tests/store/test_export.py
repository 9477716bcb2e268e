"""Exports: JSON, and PokerStars hand histories checked line by line against goldens."""

from __future__ import annotations

import functools
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from server.store import (
    EXPORT_FORMATS,
    Store,
    describe_hand,
    export_page,
    to_json,
    to_pokerstars,
)

from .hands import preflop_win_hand, side_pot_hand, split_pot_hand

SPLIT_POT = """\
PokerStars Hand #15322762790000012: Tournament #2026001, Freeroll  Hold'em No Limit - Level I \
(10/20) - 2026/11/22 15:03:07 CET [2026/11/22 9:03:07 ET]
Table '2026001 1' 6-max Seat #6 is the button
Seat 1: ana (1500 in chips)
Seat 2: bob (1500 in chips)
Seat 4: cid (1500 in chips)
Seat 6: dan (1500 in chips)
ana: posts small blind 10
bob: posts big blind 20
*** HOLE CARDS ***
Dealt to ana [Th 2c]
cid: raises 40 to 60
dan: folds
ana: calls 50
bob: folds
*** FLOP *** [Ah Kd 7c]
ana: checks
cid: bets 80
ana: calls 80
*** TURN *** [Ah Kd 7c] [Qc]
ana: checks
cid: checks
*** RIVER *** [Ah Kd 7c Qc] [Js]
ana: bets 100
cid: calls 100
*** SHOW DOWN ***
ana: shows [Th 2c] (a straight, Ten to Ace)
cid: shows [Td 3s] (a straight, Ten to Ace)
ana collected 250 from pot
cid collected 250 from pot
*** SUMMARY ***
Total pot 500 | Rake 0
Board [Ah Kd 7c Qc Js]
Seat 1: ana (small blind) showed [Th 2c] and won (250) with a straight, Ten to Ace
Seat 2: bob (big blind) folded before Flop
Seat 4: cid showed [Td 3s] and won (250) with a straight, Ten to Ace
Seat 6: dan (button) folded before Flop (didn't bet)
"""

SIDE_POT = """\
PokerStars Hand #32609401730000040: Tournament #2026001, Freeroll  Hold'em No Limit - Level V \
(50/100) - 2026/07/04 20:30:00 CEST [2026/07/04 14:30:00 ET]
Table '2026001 2' 9-max Seat #1 is the button
Seat 1: ana (1000 in chips)
Seat 2: bob (300 in chips)
Seat 3: cid (2000 in chips)
ana: posts the ante 10
bob: posts the ante 10
cid: posts the ante 10
bob: posts small blind 50
cid: posts big blind 100
*** HOLE CARDS ***
ana: raises 200 to 300
bob: calls 240 and is all-in
cid: raises 1690 to 1990 and is all-in
ana: calls 690 and is all-in
Uncalled bet (1000) returned to cid
*** FLOP *** [Kc 8d 4s]
*** TURN *** [Kc 8d 4s] [2h]
*** RIVER *** [Kc 8d 4s 2h] [9c]
*** SHOW DOWN ***
bob: shows [Ac Ah] (a pair of Aces)
cid: shows [Js Jh] (a pair of Jacks)
ana: shows [Qs Qd] (a pair of Queens)
ana collected 1400 from side pot
bob collected 900 from main pot
*** SUMMARY ***
Total pot 2300 Main pot 900. Side pot 1400. | Rake 0
Board [Kc 8d 4s 2h 9c]
Seat 1: ana (button) showed [Qs Qd] and won (1400) with a pair of Queens
Seat 2: bob (small blind) showed [Ac Ah] and won (900) with a pair of Aces
Seat 3: cid (big blind) showed [Js Jh] and lost with a pair of Jacks
"""

PREFLOP_WIN = """\
PokerStars Hand #36242043670000003:  Hold'em No Limit (10/20) - 2026/11/22 22:00:00 CET \
[2026/11/22 16:00:00 ET]
Table 'Friends' 9-max Seat #1 is the button
Seat 1: ana (2000 in chips)
Seat 2: bob (2000 in chips)
Seat 3: cid (2000 in chips)
bob: posts small blind 10
cid: posts big blind 20
*** HOLE CARDS ***
ana: raises 40 to 60
bob: folds
cid: folds
Uncalled bet (40) returned to ana
ana collected 50 from pot
ana: doesn't show hand
*** SUMMARY ***
Total pot 50 | Rake 0
Seat 1: ana (button) collected (50)
Seat 2: bob (small blind) folded before Flop
Seat 3: cid (big blind) folded before Flop
"""


def test_split_pot_hand_with_hero() -> None:
    assert to_pokerstars([split_pot_hand()], hero="ana") == SPLIT_POT


def test_split_pot_hand_without_hero_has_no_dealt_line() -> None:
    expected = SPLIT_POT.replace("Dealt to ana [Th 2c]\n", "")
    assert to_pokerstars([split_pot_hand()]) == expected


def test_side_pot_uncalled_bet_and_antes() -> None:
    assert to_pokerstars([side_pot_hand()]) == SIDE_POT
    hero = to_pokerstars([side_pot_hand()], hero="ana")
    assert hero == SIDE_POT.replace(
        "*** HOLE CARDS ***\n", "*** HOLE CARDS ***\nDealt to ana [Qs Qd]\n"
    )


def test_hand_won_preflop_cash_style() -> None:
    # the hero's cards are unknown (no "hole", nothing shown): no "Dealt to" line
    assert to_pokerstars([preflop_win_hand()], hero="ana") == PREFLOP_WIN


def test_several_hands_are_separated_by_blank_lines() -> None:
    text = to_pokerstars([split_pot_hand(), side_pot_hand(), preflop_win_hand()])
    assert text == "\n\n".join(
        [SPLIT_POT.replace("Dealt to ana [Th 2c]\n", ""), SIDE_POT, PREFLOP_WIN]
    )
    assert text.count("PokerStars Hand #") == 3
    assert "\n\n\nPokerStars Hand #" in text
    assert to_pokerstars([]) == ""


def test_three_pots_are_numbered_and_allin_bets_postflop() -> None:
    record = side_pot_hand()
    record["pots"] = [
        {"amount": 900, "winners": [2], "shares": [[2, 900]]},
        {"amount": 1000, "winners": [1], "shares": [[1, 1000]]},
        {"amount": 400, "winners": [1, 3]},  # no shares: split from the winners
    ]
    text = to_pokerstars([record])
    assert "ana collected 200 from side pot-2\ncid collected 200 from side pot-2\n" in text
    assert "ana collected 1000 from side pot-1\nbob collected 900 from main pot\n" in text
    assert "Total pot 2300 Main pot 900. Side pot-1 1000. Side pot-2 400. | Rake 0" in text
    assert "Seat 3: cid (big blind) showed [Js Jh] and won (200) with a pair of Jacks" in text


def test_allin_is_a_bet_when_nobody_bet_the_street() -> None:
    record = split_pot_hand()
    record["actions"][7] = {
        "street": "flop",
        "seat": 4,
        "name": "cid",
        "action": "allin",
        "to": 1440,
        "added": 1440,
        "allin": True,
    }
    record["actions"][8] = {"street": "flop", "seat": 1, "name": "ana", "action": "fold"}
    del record["actions"][9:]
    record["returned"] = [{"seat": 4, "name": "cid", "amount": 1440}]
    record["board"] = record["board"][:3]
    record["shown"] = {}
    record["pots"] = [{"amount": 140, "winners": [4], "shares": [[4, 140]]}]
    text = to_pokerstars([record])
    assert "cid: bets 1440 and is all-in\nana: folds\nUncalled bet (1440) returned to cid\n" in text
    assert "cid collected 140 from pot\ncid: doesn't show hand\n*** SUMMARY ***" in text
    assert "*** TURN ***" not in text and "*** SHOW DOWN ***" not in text
    assert "Seat 1: ana (small blind) folded on the Flop" in text
    assert "Seat 4: cid collected (140)" in text
    assert "Board [Ah Kd 7c]" in text


def test_mucked_hand_at_showdown() -> None:
    record = split_pot_hand()
    record["shown"] = {"1": ["Th", "2c"]}
    record["mucked"] = [4]
    record["pots"] = [{"amount": 500, "winners": [1], "shares": [[1, 500]]}]
    text = to_pokerstars([record])
    assert "ana: shows [Th 2c] (a straight, Ten to Ace)\ncid: mucks hand\n" in text
    assert "Seat 4: cid mucked\n" in text
    assert "Seat 1: ana (small blind) showed [Th 2c] and won (500) with" in text


def test_minimal_record_is_tolerated() -> None:
    record: dict[str, Any] = {
        "table": "t9",
        "hand": 1,
        "button": 2,
        "players": [
            {"seat": 1, "name": "ana", "stack": 100},
            {"seat": 2, "name": "bob", "stack": 100},
        ],
        "actions": [
            {"street": "preflop", "seat": 2, "name": "bob", "action": "post_sb", "added": 5},
            {"street": "preflop", "seat": 1, "name": "ana", "action": "post_bb", "added": 10},
            {"street": "preflop", "seat": 2, "name": "bob", "action": "call", "added": 5},
            {"street": "preflop", "seat": 1, "name": "ana", "action": "raise", "added": 30},
            {"street": "preflop", "seat": 2, "name": "bob", "action": "fold"},
            {"street": "preflop", "seat": 2, "name": "bob", "action": "sit_out"},
        ],
    }
    text = to_pokerstars([record])
    assert text.startswith("PokerStars Hand #")
    assert text.splitlines()[0].endswith(" ET]")  # no started_at: still a valid date
    assert "ana: raises 30 to 40\nbob: folds\n" in text
    assert "sit_out" not in text
    assert "Seat 2: bob (button) (small blind) folded before Flop\n" in text
    assert "Total pot 0 | Rake 0" in text


@pytest.mark.parametrize(
    ("started_at", "expected"),
    [
        # EDT (UTC-4) and CEST (UTC+2)
        ("2026-07-04T18:30:00Z", "2026/07/04 20:30:00 CEST [2026/07/04 14:30:00 ET]"),
        # EST (UTC-5), the day before; CET (UTC+1)
        ("2026-01-10T03:00:00Z", "2026/01/10 04:00:00 CET [2026/01/09 22:00:00 ET]"),
        # last second of EST; first of EDT (the US changes on the 2nd Sunday of March)
        ("2026-03-08T06:59:59Z", "2026/03/08 07:59:59 CET [2026/03/08 1:59:59 ET]"),
        ("2026-03-08T07:00:00Z", "2026/03/08 08:00:00 CET [2026/03/08 3:00:00 ET]"),
        # France changes on the last Sunday of March and of October, at 1:00 UTC
        ("2026-03-29T00:59:59Z", "2026/03/29 01:59:59 CET [2026/03/28 20:59:59 ET]"),
        ("2026-03-29T01:00:00Z", "2026/03/29 03:00:00 CEST [2026/03/28 21:00:00 ET]"),
        ("2026-10-25T00:59:59Z", "2026/10/25 02:59:59 CEST [2026/10/24 20:59:59 ET]"),
        ("2026-10-25T01:00:00Z", "2026/10/25 02:00:00 CET [2026/10/24 21:00:00 ET]"),
        # last second of EDT; back to EST (1st Sunday of November)
        ("2026-11-01T05:59:59Z", "2026/11/01 06:59:59 CET [2026/11/01 1:59:59 ET]"),
        ("2026-11-01T06:00:00Z", "2026/11/01 07:00:00 CET [2026/11/01 1:00:00 ET]"),
        # any offset is accepted
        ("2026-11-22T15:03:07+01:00", "2026/11/22 15:03:07 CET [2026/11/22 9:03:07 ET]"),
    ],
)
def test_times_are_paris_then_eastern(started_at: str, expected: str) -> None:
    record = preflop_win_hand()
    record["started_at"] = started_at
    assert to_pokerstars([record]).splitlines()[0].endswith(f"- {expected}")


def test_buy_in_is_written_as_play_chips() -> None:
    record = split_pot_hand()
    record["tournament"] = {"id": "2026001", "level": 2, "buyin": 500}
    first = to_pokerstars([record]).splitlines()[0]
    assert ": Tournament #2026001, 500+0 Hold'em No Limit - Level II (10/20) - " in first


@pytest.mark.parametrize(
    ("level", "roman"), [(1, "I"), (4, "IV"), (9, "IX"), (14, "XIV"), (40, "XL")]
)
def test_levels_are_roman(level: int, roman: str) -> None:
    record = split_pot_hand()
    record["tournament"] = {"id": "spring-cup", "level": level, "buyin": 0}
    first = to_pokerstars([record]).splitlines()[0]
    assert f", Freeroll  Hold'em No Limit - Level {roman} (10/20) - " in first
    assert first.split("Tournament #")[1].split(",")[0].isdigit()


@pytest.mark.parametrize(
    ("cards", "text"),
    [
        (["Ah", "Kd", "7c", "Qc", "Js", "Th", "2c"], "a straight, Ten to Ace"),
        (["Ah", "2d", "3c", "4c", "5s", "Kh", "Kc"], "a straight, Ace to Five"),
        (["Ah", "Kh", "Qh", "Jh", "Th", "2c", "2d"], "a Royal Flush"),
        (["9h", "Kh", "Qh", "Jh", "Th", "2c", "2d"], "a straight flush, Nine to King"),
        (["Ah", "2h", "3h", "4h", "5h", "Kc", "Kd"], "a straight flush, Ace to Five"),
        (["Ah", "Ad", "Ac", "As", "5h", "Kc", "Kd"], "four of a kind, Aces"),
        (["6h", "6d", "6c", "Ks", "5h", "Kc", "Kd"], "a full house, Kings full of Sixes"),
        (["2h", "9h", "6h", "Ks", "5h", "Kc", "Jh"], "a flush, Jack high"),
        (["2h", "2d", "2c", "Ks", "5h", "Qc", "Jd"], "three of a kind, Deuces"),
        (["2h", "2d", "6c", "6s", "5h", "5c", "Jd"], "two pair, Sixes and Fives"),
        (["Qs", "Qd", "Kc", "8d", "4s", "2h", "9c"], "a pair of Queens"),
        (["Ac", "7d", "Kc", "8d", "4s", "2h", "9c"], "high card Ace"),
        (["Ac", "Ad"], "a pair of Aces"),
        (["10c", "9d", "8h", "7s", "6c"], "a straight, Six to Ten"),
    ],
)
def test_describe_hand(cards: list[str], text: str) -> None:
    assert describe_hand(cards) == text


def test_describe_hand_refuses_bad_cards() -> None:
    for bad in ([], ["Xx"], ["A"], ["Ah", ""]):
        with pytest.raises(ValueError):
            describe_hand(bad)


def test_to_json_is_a_stable_array() -> None:
    records = [split_pot_hand(), side_pot_hand()]
    text = to_json(records)
    assert json.loads(text) == records
    reordered = [dict(reversed(list(r.items()))) for r in records]
    assert to_json(reordered) == text
    assert text.startswith("[") and to_json([]) == "[]"


def test_export_from_the_store(tmp_path: Path) -> None:
    with Store(tmp_path / "s.db") as store:
        store.save_hand_record("t1", 12, split_pot_hand())
        store.save_hand_record("t1", 11, preflop_win_hand())
        records = store.hand_records("t1")
    assert to_pokerstars(records, hero="ana") == "\n\n".join([PREFLOP_WIN, SPLIT_POT])
    assert json.loads(to_json(records)) == [preflop_win_hand(), split_pot_hand()]


# -- pages of an export (issue 11: long histories by pages, built off the event loop) ------


def _history(count: int) -> list[dict[str, Any]]:
    makers = (split_pot_hand, side_pot_hand, preflop_win_hand)
    records = []
    for hand in range(1, count + 1):
        record = makers[hand % 3]()
        record.update(hand=hand, table="t1", note={"é": [], "\u2028": {}, "n": "a\nb"})
        records.append(record)
    return records


def test_to_json_is_the_indented_dump_of_the_list() -> None:
    records = _history(7)
    assert to_json(records) == json.dumps(records, ensure_ascii=False, sort_keys=True, indent=2)
    assert to_json(records[:1]) == json.dumps(
        records[:1], ensure_ascii=False, sort_keys=True, indent=2
    )


@pytest.mark.parametrize("budget", [1, 2_500, 9_000, 10**7])
def test_pages_put_together_are_the_whole_export(budget: int) -> None:
    records = _history(23)
    whole = {"txt": to_pokerstars(records).encode(), "json": to_json(records).encode()}
    for fmt in EXPORT_FORMATS:
        pages: list[bytes] = []
        pauses: list[int] = []
        pause = functools.partial(pauses.append, 1)
        done = 0
        while done < len(records):
            body, hands = export_page(records[done:], fmt, max_bytes=budget, pause=pause)
            assert hands >= 1  # at least one hand, whatever the budget
            assert len(body) <= budget or hands == 1
            pages.append(body)
            done += hands
        assert len(pauses) == len(records)  # the GIL is offered back after each hand
        if fmt == "json":
            assert [r for page in pages for r in json.loads(page)] == records
        else:
            assert b"\n\n".join(pages) == whole[fmt]
        if budget == 10**7:
            assert pages == [whole[fmt]]
        assert export_page([], fmt, max_bytes=budget) == ((b"[]" if fmt == "json" else b""), 0)


def test_the_store_reads_pages_and_so_does_its_reader_in_another_thread(tmp_path: Path) -> None:
    records = _history(30)
    with Store(tmp_path / "s.db") as store:
        for record in records:
            if record["hand"] % 7:  # some hands have no record (cancelled)
                store.save_hand_record("t1", record["hand"], record)
        store.save_hand_record("t2", 1, preflop_win_hand())
        kept = [r for r in records if r["hand"] % 7]
        assert store.hand_records("t1") == kept
        assert store.hand_count("t1") == len(kept) and store.hand_count("t3") == 0
        assert store.hand_records("t1", start=7, count=3) == kept[6:9]  # no hand 7
        assert [h for h, _ in store.hand_page("t1", 7, 3)] == [8, 9, 10]
        assert [(h, json.loads(t)) for h, t in store.hand_texts("t1", 28)] == [
            (h, r) for h, r in store.hand_page("t1", 28)
        ]
        for huge in (2**63, 10**30, -(10**30)):  # numbers typed in a URL: no OverflowError
            assert store.hand_record("t1", huge) is None
        assert store.hand_page("t1", 10**30) == [] and store.hand_page("t1", -(10**30)) != []
        assert store.hand_page("t1", 0, 0) == [] and store.hand_page("t1", 0, 10**30) != []
        reader = store.reader()
        assert reader is not None
        with ThreadPoolExecutor(2) as pool:  # its own read-only connection in each thread
            page = pool.submit(reader.hand_page, "t1", 7, 3).result()
            assert page == store.hand_page("t1", 7, 3)
            assert pool.submit(reader.hand_count, "t1").result() == len(kept)
            assert pool.submit(reader.hand_record, "t2", 1).result() == preflop_win_hand()
            assert pool.submit(reader.hand_record, "t2", 10**30).result() is None
            store.set_meta("k", "v")  # the writer is not blocked, the reader sees the commit
            assert pool.submit(reader.get_meta, "k").result() == "v"
            texts = pool.submit(reader.hand_texts, "t1", 0, 2).result()
            assert [json.loads(t) for _, t in texts] == kept[:2]
    with Store(":memory:") as memory:
        assert memory.reader() is None  # no other connection sees a memory database


def test_redis_tables_give_pages_too(redis_url: str, redis_prefix: str) -> None:
    redis = pytest.importorskip("redis")
    from server.tournament.redis_store import RedisTableStore

    store = RedisTableStore(redis.Redis.from_url(redis_url), redis_prefix)
    records = _history(12)
    for record in records:
        store.save_hand_record("t1", record["hand"], record)
    assert store.hand_count("t1") == 12 and store.hand_count("t2") == 0
    page = store.hand_texts("t1", start=10, count=5)
    assert [(h, json.loads(t)) for h, t in page] == [(r["hand"], r) for r in records[9:]]
    assert [h for h, _ in store.hand_texts("t1", count=3)] == [1, 2, 3]
    assert store.hand_texts("t1", start=13) == [] and store.hand_texts("t2") == []


def _hole_events() -> list[tuple[int, str, dict[str, Any]]]:
    """Hands 1-3 at seat 2: ana, ana, then bob (ana left, bob took her seat)."""
    owners = {1: "pid-ana", 2: "pid-ana", 3: "pid-bob"}
    events: list[tuple[int, str, dict[str, Any]]] = []
    for hand, owner in owners.items():
        cards = ["As", "Kd"] if owner == "pid-ana" else ["7c", "2h"]
        events.append((len(events) + 1, "action", {"hand": hand, "seat": 2}))
        events.append(
            (len(events) + 1, "hole", {"hand": hand, "seat": 2, "cards": cards, "owner": owner})
        )
    return events


def test_hole_cards_go_to_the_player_dealt_never_to_the_seat(tmp_path: Path) -> None:
    """A player's own export reads the hole events addressed to him: the hands of the
    seat's next occupant are not his (SQLite, and its reader in another process)."""
    store = Store(tmp_path / "s.sqlite")
    store.append_events("t1", _hole_events())
    assert store.hole_cards("t1", "pid-ana", 1, 3) == {1: (2, ["As", "Kd"]), 2: (2, ["As", "Kd"])}
    assert store.hole_cards("t1", "pid-bob", 1, 3) == {3: (2, ["7c", "2h"])}
    assert store.hole_cards("t1", "pid-ana", 2, 2) == {2: (2, ["As", "Kd"])}
    assert store.hole_cards("t1", "pid-eve", 1, 3) == {}
    reader = store.reader()
    assert reader is not None
    assert reader.hole_cards("t1", "pid-bob", 0, 10**30) == {3: (2, ["7c", "2h"])}


def test_redis_tables_give_hole_cards_too(redis_url: str, redis_prefix: str) -> None:
    redis = pytest.importorskip("redis")
    from server.tournament.redis_store import RedisTableStore

    store = RedisTableStore(redis.Redis.from_url(redis_url), redis_prefix)
    store.append_events("t1", _hole_events())
    assert store.hole_cards("t1", "pid-ana", 1, 3) == {1: (2, ["As", "Kd"]), 2: (2, ["As", "Kd"])}
    assert store.hole_cards("t1", "pid-bob", 3, 3) == {3: (2, ["7c", "2h"])}
