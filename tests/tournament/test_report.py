"""The table's end-of-hand report (server.table.report): one typed object from the table to the
director, and its JSON for the Redis coordinator's report stream."""

from __future__ import annotations

import json
from dataclasses import replace

import msgpack
import pytest

from server.engine.positions import Positions
from server.table.report import Bust, HandEnded
from server.tournament import ReportError
from server.tournament.coordinator import DirectorLoop

from .helpers import deal, started

REPORT = HandEnded(
    hand_no=12,
    positions=Positions(button=3, sb_slot=4, big_blind=6),
    stacks={1: ("alice", 12_500), 6: ("bob", 7_475)},
    busts=(
        Bust(player_id="carol", seat=4, start_stack=3_000, eliminated_by=("alice", "bob")),
        Bust(player_id="dave", seat=3, start_stack=1_025, eliminated_by=("alice",)),
    ),
)


def test_the_report_goes_through_json_and_msgpack_unchanged() -> None:
    for report in (REPORT, REPORT.numbered(7), replace(REPORT, busts=(), cancelled=True)):
        data = report.to_json()
        assert HandEnded.from_json(data) == report
        assert HandEnded.from_json(json.loads(json.dumps(data))) == report
        packed = msgpack.packb(data, use_bin_type=True)
        assert HandEnded.from_json(msgpack.unpackb(packed, raw=False)) == report


def test_the_table_reports_without_its_number_and_the_host_fills_it_in() -> None:
    assert REPORT.table_id is None
    numbered = REPORT.numbered(7)
    assert numbered.table_id == 7 and numbered.busts == REPORT.busts
    assert REPORT.to_json()["table"] is None


def test_the_director_refuses_a_report_without_its_table() -> None:
    d = started(9)
    dl = deal(d, 1)
    stacks = {s: (p, d.stack(p)) for s, p in dl.seats.items()}
    anonymous = HandEnded(hand_no=dl.hand_no, positions=dl.positions, stacks=stacks)
    with pytest.raises(ReportError):
        d.hand_ended(anonymous, 1.0)
    assert d.busy(1)
    loop = DirectorLoop(d)
    assert loop.hand_ended(anonymous, 1.0) == []  # refused, logged
    out = loop.handle("ended", anonymous.numbered(1).to_json(), 1.0)  # the Redis path
    assert not d.busy(1) and isinstance(out, list)
