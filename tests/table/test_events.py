"""The typed table events (server.table.events): one frozen class per kind, each giving the
payload that is stored as ``(seq, kind, payload)`` and rendered into its server message.

The payloads must be exactly those written before the events were typed (keys, their order,
the optional keys left out): an old data directory's events and a new one's read the same.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from protocol import decode_server
from protocol import messages as m
from server.engine import events as ev
from server.table import commands as c
from server.table.effects import Deliver, Effect
from server.table.events import (
    EVENT_CLASSES,
    Action,
    Board,
    ChatEvent,
    ClockEvent,
    ClockKind,
    CutPrompt,
    Drawn,
    Drew,
    HandEnd,
    HandStart,
    Hole,
    Pot,
    PotView,
    Seat,
    Shown,
    TableEvent,
)
from server.table.outbox import Outbox
from server.table.seats import Watcher
from server.table.translate import HandLog
from server.table.views import render

from .pure import Pure

# one event of every kind, with the payload the table wrote before the events were typed
# (the literal dicts of the old call sites, in their key order)
SAMPLES: list[tuple[TableEvent, dict[str, Any]]] = [
    (
        Seat(seat=3, player="ANNE", stack=1500, status="seated"),
        {"seat": 3, "player": "ANNE", "stack": 1500, "status": "seated"},
    ),
    (
        ChatEvent(seat=None, player="director", text="pause"),
        {"seat": None, "player": "director", "text": "pause"},
    ),
    (
        HandStart(
            hand=4,
            button=1,
            small_blind=None,  # fpc 17-3: nobody pays the small blind
            big_blind=3,
            blinds=(50, 100, 0),
            stacks=((1, 900), (3, 2000)),
            commitment="ab12",
        ),
        {
            "hand": 4,
            "button": 1,
            "small_blind": None,
            "big_blind": 3,
            "blinds": [50, 100, 0],
            "stacks": {"1": 900, "3": 2000},
            "commitment": "ab12",
        },
    ),
    (
        CutPrompt(hand=4, seat=2, deadline_ms=8000),
        {"hand": 4, "seat": 2, "deadline_ms": 8000},
    ),
    (
        Hole(hand=4, seat=2, cards=("Ah", "Kd"), owner="p2"),
        {"hand": 4, "seat": 2, "cards": ["Ah", "Kd"], "owner": "p2"},
    ),
    (
        Drew(hand=4, seat=2, count=3, reshuffled=9),
        {"hand": 4, "seat": 2, "count": 3, "reshuffled": 9},
    ),
    (
        Drawn(
            hand=4,
            seat=2,
            discarded=("2c",),
            received=("Ah",),
            cards=("Ah", "Kd", "Qs", "Jh", "Td"),
            owner="p2",
        ),
        {
            "hand": 4,
            "seat": 2,
            "discarded": ["2c"],
            "received": ["Ah"],
            "cards": ["Ah", "Kd", "Qs", "Jh", "Td"],
            "owner": "p2",
        },
    ),
    (
        Action(
            hand=4,
            seat=2,
            action="raise",
            to=300,
            added=300,
            stack=600,
            allin=False,
            rule="cdc-9.4",
            note="",
        ),
        {
            "hand": 4,
            "seat": 2,
            "action": "raise",
            "to": 300,
            "added": 300,
            "stack": 600,
            "allin": False,
            "rule": "cdc-9.4",
            "note": "",
        },
    ),
    (
        Board(
            hand=4,
            street="flop",
            cards=("2c", "7d", "Qs"),
            pots=(PotView(amount=600, eligible=(2, 3)),),
        ),
        {
            "hand": 4,
            "street": "flop",
            "cards": ["2c", "7d", "Qs"],
            "pots": [{"amount": 600, "eligible": [2, 3]}],
        },
    ),
    (
        Shown(hand=4, seat=3, cards=("Qh", "Qc"), rank="three of a kind"),
        {"hand": 4, "seat": 3, "cards": ["Qh", "Qc"], "rank": "three of a kind"},
    ),
    (
        Pot(hand=4, index=0, amount=600, winners=(3,), shares=(600,)),
        {"hand": 4, "index": 0, "amount": 600, "winners": [3], "shares": [600]},
    ),
    (
        HandEnd(
            hand=4, stacks=((2, 600), (3, 2600)), record="/api/hands/t1/4.json", cancelled=False
        ),
        {
            "hand": 4,
            "stacks": {"2": 600, "3": 2600},
            "record": "/api/hands/t1/4.json",
            "cancelled": False,
        },
    ),
    (
        ClockEvent(hand=4, seat=2, clock=ClockKind.ACTION, remaining_ms=30000),
        {"hand": 4, "seat": 2, "kind": "action", "remaining_ms": 30000},
    ),
]


IDS = [event.kind for event, _ in SAMPLES]


def test_every_kind_the_table_emits_has_one_class_and_a_server_message() -> None:
    assert sorted(EVENT_CLASSES) == sorted({type(e).kind for e, _ in SAMPLES})
    assert sorted(EVENT_CLASSES) == [
        "action",
        "board",
        "chat_event",
        "clock_event",
        "cut_prompt",
        "drawn",
        "drew",
        "hand_end",
        "hand_start",
        "hole",
        "pot",
        "seat",
        "shown",
    ]
    for kind, cls in EVENT_CLASSES.items():
        assert cls.kind == kind and kind in m.SERVER_MESSAGES


@pytest.mark.parametrize(("event", "stored"), SAMPLES, ids=IDS)
def test_the_payload_is_the_stored_format_key_for_key_in_order(
    event: TableEvent, stored: dict[str, Any]
) -> None:
    payload = event.payload()
    assert payload == stored
    assert list(payload) == list(stored)  # the same JSON text in the events table
    assert json.dumps(payload) == json.dumps(stored)
    assert event.payload() is not payload  # a new dict each time: the event stays as it was


@pytest.mark.parametrize(("event", "stored"), SAMPLES, ids=IDS)
def test_events_are_frozen_slotted_and_keyword_only(
    event: TableEvent, stored: dict[str, Any]
) -> None:
    cls = type(event)
    assert not hasattr(event, "__dict__")
    name = dataclasses.fields(event)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(event, name, 0)
    values = [getattr(event, f.name) for f in dataclasses.fields(event)]
    with pytest.raises(TypeError):
        cls(*values)
    assert cls(**{f.name: getattr(event, f.name) for f in dataclasses.fields(event)}) == event


@pytest.mark.parametrize(("event", "stored"), SAMPLES, ids=IDS)
def test_a_payload_renders_into_its_message_owner_left_out(
    event: TableEvent, stored: dict[str, Any]
) -> None:
    msg = render("t1", True, 17, event.payload(), event.kind)
    assert isinstance(msg, m.SERVER_MESSAGES[event.kind])
    wire = json.loads(json.dumps(dataclasses.asdict(msg)))
    assert wire["table"] == "t1" and wire["seq"] == 17
    assert "owner" not in wire  # a player identity is never sent
    for key, value in stored.items():
        if key != "owner":
            assert wire[key] == value, key


def test_optional_keys_are_left_out_as_before() -> None:
    """The keys an old server left out stay out: a hole's owner before the table sets it,
    a board's pots and run, a pot's run and rake, the action clock's countdown."""
    assert "owner" not in Hole(hand=1, seat=1, cards=("2c", "3c")).payload()
    board = Board(hand=1, street="turn", cards=("9h",)).payload()
    assert list(board) == ["hand", "street", "cards"]
    run = Board(hand=1, street="turn", cards=("9h",), run=2, pots=()).payload()
    assert list(run) == ["hand", "street", "cards", "run", "pots"]
    pot = Pot(hand=1, index=1, amount=90, winners=(1, 2), shares=(45, 45), run=3, rake=5)
    assert list(pot.payload())[-2:] == ["run", "rake"]
    time = ClockEvent(hand=1, seat=1, clock=ClockKind.TIME, remaining_ms=1, countdown_ms=0)
    assert time.payload()["countdown_ms"] == 0  # a zero countdown is still sent


# ---------------------------------------------------------------------- from the engine


def test_a_raked_pot_carries_its_rake_and_an_unraked_one_none() -> None:
    """casino cash: « La taille sera retenue sur le montant du "pot principal" et celui des
    "pots extérieurs" de chaque donne et ce même en cas d'égalité parfaite »: the pot event
    of a raked pot says how much, split shares included; a pot with no rake has no key."""
    log = HandLog(7, {1: 1000, 2: 1000}, {1: "A", 2: "B"})
    raked = ev.PotAwarded(
        index=0,
        amount=400,
        eligible=("1", "2"),
        winners=("1", "2"),
        shares=(("1", 190), ("2", 190)),
        rake=20,
    )
    free = dataclasses.replace(raked, index=1, rake=0, amount=100, shares=(("1", 50), ("2", 50)))
    out, notices = log.translate([raked, free], lambda p: 0)
    assert notices == []
    assert out == [
        Pot(hand=7, index=0, amount=400, winners=(1, 2), shares=(190, 190), rake=20),
        Pot(hand=7, index=1, amount=100, winners=(1, 2), shares=(50, 50)),
    ]
    assert out[0].payload()["rake"] == 20 and "rake" not in out[1].payload()
    assert log.stacks == {1: 1240, 2: 1240}  # the shares, never the rake


def test_run_it_three_times_each_run_has_its_board_and_its_third_of_the_pot() -> None:
    """fpc multi-bordes: « Le pot est divisé en trois, le gagnant de chaque tirage remporte
    le tiers de pot correspondant » and « Tapis avant la turn : 3 tirages turn et rivier sont
    faits. Le flop reste identique »: each run's board and pot event say which run (the
    first run's pot, as before, says nothing)."""
    log = HandLog(3, {1: 0, 2: 0}, {1: "A", 2: "B"})
    events: list[ev.Event] = []
    for run in (1, 2, 3):
        events.append(ev.RunDealt(run=run, street="turn", cards=(0,)))
        events.append(
            ev.PotAwarded(
                index=0,
                amount=300,
                eligible=("1", "2"),
                winners=(str(1 + run % 2),),
                shares=((str(1 + run % 2), 300),),
                run=run,
            )
        )
    out, _ = log.translate(events, lambda p: 0)
    boards = [e for e in out if isinstance(e, Board)]
    pots = [e for e in out if isinstance(e, Pot)]
    assert [b.run for b in boards] == [1, 2, 3]
    assert [p.run for p in pots] == [None, 2, 3]
    assert ["run" in p.payload() for p in pots] == [False, True, True]
    assert [p.winners for p in pots] == [(2,), (1,), (2,)]
    assert log.stacks == {1: 300, 2: 600}


# ---------------------------------------------------------------------- at the table


def test_the_time_is_a_typed_clock_event_stored_as_before() -> None:
    """fpc 9-1: « Le joueur a le droit à 1 minute de réflexion, suivie d'un décompte de 10
    secondes supplémentaire »: stored with ``kind`` "time", 70 s and a 10 s countdown; the
    action clock that came before has no countdown."""
    p = Pure(profile="fpc", action_seconds=600, time_call_after=60)
    p.seat_players(3)
    p.start_hand()
    thinker = p.to_act()
    caller = p.conns[f"p{thinker % 3 + 1}"]
    p.advance(60)
    p.do(c.CallTime(conn=caller, hand=p.table.hand_no))
    clocks = [d for _, k, d in p.net.events() if k == "clock_event" and d["seat"] == thinker]
    assert clocks[0] == {
        "hand": p.table.hand_no,
        "seat": thinker,
        "kind": "action",
        "remaining_ms": 600_000,
    }
    assert clocks[-1] == {
        "hand": p.table.hand_no,
        "seat": thinker,
        "kind": "time",
        "remaining_ms": 70_000,
        "countdown_ms": 10_000,
        "by": thinker % 3 + 1,  # who called it: the table is told (issue 29)
    }


def test_hole_cards_are_stored_with_their_owner_and_sent_to_him_only() -> None:
    """One player, one hand (cdc 11, ONLINE_RULES): the stored hole event names its owner
    (a player identity), the owner's frame has the cards, everyone else's none, and no
    frame carries the identity."""
    p = Pure()
    p.seat_players(2)
    spectator = p.watch()
    p.start_hand()
    holes = [d for _, k, d in p.net.events() if k == "hole"]
    assert sorted(d["owner"] for d in holes) == ["p1", "p2"]
    assert all(list(d) == ["hand", "seat", "cards", "owner"] for d in holes)
    for d in holes:
        mine = [h for h in p.of(d["owner"], m.HoleCards) if h.seat == d["seat"]]
        assert [list(h.cards) for h in mine] == [d["cards"]]
        other = "p2" if d["owner"] == "p1" else "p1"
        assert [h.cards for h in p.of(other, m.HoleCards) if h.seat == d["seat"]] == [()]
        assert [h.cards for h in p.of(spectator, m.HoleCards) if h.seat == d["seat"]] == [()]
    frames = [e.frame for effects in p.log for e in effects if isinstance(e, Deliver)]
    assert frames and not any(b'"owner"' in f for f in frames)
    p.play_out("call")  # check it down: every street has its pots
    boards = [d for _, k, d in p.net.events() if k == "board"]
    assert boards and all("pots" in d for d in boards)


def _frames(effects: list[Effect]) -> list[tuple[tuple[str, ...], bytes]]:
    return [(e.cids, e.frame) for e in effects if isinstance(e, Deliver)]


def test_events_read_back_from_the_store_render_as_they_were_sent_live() -> None:
    """A resync after a restart re-renders the stored ``(seq, kind, payload)`` dicts (read
    back as JSON, never rebuilt): the frames are those the live events gave."""
    live = Outbox("t1", 0)
    live.watchers["c1"] = Watcher(cid="c1", player="p2", seat=2)
    live.watchers["c2"] = Watcher(cid="c2", player="p3", seat=3)
    live.emit([e for e, _ in SAMPLES])
    sent = _frames(live.flush(lambda: (0, {})))

    restarted = Outbox("t1", live.seq)
    restarted.recent = [
        (seq, kind, json.loads(json.dumps(data))) for seq, kind, data in live.recent
    ]
    again = []
    for cid, player, seat in (("c1", "p2", 2), ("c2", "p3", 3)):
        watcher = Watcher(cid=cid, player=player, seat=seat)
        restarted.catch_up(watcher, restarted.seq, lambda: {})
        again.extend(_frames(restarted.flush(lambda: (0, {}))))
    by_cid: dict[str, list[bytes]] = {"c1": [], "c2": []}
    for cids, frame in sent:
        for cid in cids:
            by_cid[cid].append(frame)
    assert [f for cids, f in again if cids == ("c1",)] == by_cid["c1"]
    assert [f for cids, f in again if cids == ("c2",)] == by_cid["c2"]
    holes = {
        cid: [x.cards for x in map(decode_server, frames) if isinstance(x, m.HoleCards)]
        for cid, frames in by_cid.items()
    }
    assert holes == {"c1": [("Ah", "Kd")], "c2": [()]}  # p2 owns seat 2's cards
