"""``python -m protocol.verify`` on five-card draw records (issue 31): a hand dealt from a
committed deck verifies; a server that changes a replacement card, a discard or a new stub's
order, then signs its lie, is caught (the cards shown no longer match the commitment)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from protocol.draw import stub_commitment
from protocol.verify import main, verify_record
from tests.dealing.drawplay import Played, play, resign, table_record


def _drawer_shown(played: Played) -> tuple[int, dict[str, Any]]:
    """The first draw whose player showed his hand and drew at least one card."""
    record = played.record
    for k, entry in enumerate(record["draws"]):
        if entry["seat"] in record["shown"] and entry["received"]:
            return k, entry
    raise AssertionError("no shown drawer")


@pytest.fixture(scope="module")
def played() -> Played:
    """A hand where a player who drew one to four cards shows his hand."""
    for seed in range(50):
        hand = play(seed, players=3, discards=[2, 3, 1], fold_rate=0.0)
        shown = hand.record["shown"]
        if any(d["seat"] in shown and d["received"] for d in hand.record["draws"]):
            return hand
    raise AssertionError("no shown drawer")


@pytest.fixture(scope="module")
def reshuffled() -> Played:
    """Nine players drawing five each: a new stub, and shown cards dealt from it."""
    for seed in range(50):
        hand = play(seed, players=9, discards=[5] * 9, fold_rate=0.0)
        shown = hand.record["shown"]
        late = [d for d in hand.record["draws"][2:] if d["seat"] in shown]
        if late:
            return hand
    raise AssertionError("no hand with a shown card of a new stub")


def test_a_draw_record_verifies_on_the_command_line(
    played: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(played.record))
    assert main([str(path), "--key", played.record["public_key"]]) == 0
    assert capsys.readouterr().out == "OK\n"


def test_a_record_with_a_new_stub_verifies(reshuffled: Played) -> None:
    assert verify_record(reshuffled.record) == []


def test_an_unsigned_change_breaks_the_signature(played: Played) -> None:
    record = copy.deepcopy(played.record)
    record["draws"][0]["discarded"] = record["draws"][0]["discarded"][::-1]
    assert any("signature" in p for p in verify_record(record))


def test_a_replacement_card_changed_fails(played: Played) -> None:
    _, entry = _drawer_shown(played)
    record = copy.deepcopy(played.record)
    seat = entry["seat"]
    # the card shown in place of the discard: another card, opened at the right position
    slot = entry["received"][0]
    position = (record["cut"] + slot) % 52
    opening = next(o for o in record["opened"] if o["position"] == position)
    shown = record["shown"][seat]
    other = next(c for c in ("2c", "2d", "2h", "2s", "3c") if c not in shown)
    shown[shown.index(opening["card"])] = other
    opening["card"] = other
    problems = verify_record(resign(record))
    assert any("does not reach the root" in p for p in problems), problems
    assert any(f"seat {seat} shows {other!r}" in p for p in problems), problems


def test_a_replacement_slot_changed_fails(played: Played) -> None:
    k, entry = _drawer_shown(played)
    record = copy.deepcopy(played.record)
    record["draws"][k]["received"][0] += 1
    problems = verify_record(resign(record))
    assert any(f"draws[{k}]: seat {entry['seat']} received slots" in p for p in problems)


def test_a_discard_changed_fails(played: Played) -> None:
    k, entry = _drawer_shown(played)
    record = copy.deepcopy(played.record)
    seat = entry["seat"]
    kept = [s for s in record["slots"]["hole"][seat] if s not in entry["discarded"]]
    # he threw another of his cards: the card he kept there is no longer his to show
    record["draws"][k]["discarded"][0] = kept[0]
    problems = verify_record(resign(record))
    assert any(f"seat {seat} shows" in p for p in problems), problems


def test_a_discard_not_his_own_fails(played: Played) -> None:
    record = copy.deepcopy(played.record)
    record["draws"][0]["discarded"] = [51]
    problems = verify_record(resign(record))
    assert any("not its own" in p for p in problems), problems


def test_the_reshuffle_order_changed_fails(reshuffled: Played) -> None:
    record = copy.deepcopy(reshuffled.record)
    seed = bytes(32)
    record["stub_seed"] = seed.hex()
    record["stub_commit"] = stub_commitment(seed).hex()  # a lie made consistent
    problems = verify_record(resign(record))
    assert any("the committed order deals" in p for p in problems), problems
    assert any("shows" in p for p in problems), problems


def test_a_seed_that_is_not_the_one_committed_fails(reshuffled: Played) -> None:
    record = copy.deepcopy(reshuffled.record)
    record["stub_seed"] = bytes(32).hex()
    problems = verify_record(resign(record))
    assert "stub_seed does not match stub_commit (the order of a new stub)" in problems


def test_draws_out_of_turn_or_twice_fail(played: Played) -> None:
    record = copy.deepcopy(played.record)
    record["draws"] = record["draws"][::-1]
    problems = verify_record(resign(record))
    assert any("out of turn or twice" in p for p in problems), problems


def test_opening_the_burn_card_is_rabbit_hunting(played: Played) -> None:
    record = copy.deepcopy(played.record)
    burn = (record["cut"] + record["slots"]["burn"][0]) % 52
    record["opened"].append(played.deal.deck.opening([burn])[0].to_json())
    problems = verify_record(resign(record))
    assert any(f"position {burn}" in p and "rabbit hunting" in p for p in problems), problems


def test_a_draw_layout_that_is_not_canonical_fails(played: Played) -> None:
    record = copy.deepcopy(played.record)
    record["slots"]["burn"] = [0]
    record["board"] = ["As"]
    problems = verify_record(resign(record))
    assert "a draw hand has no board" in problems
    assert any("slots.burn" in p for p in problems)


def test_an_unknown_game_is_a_problem(played: Played) -> None:
    record = copy.deepcopy(played.record)
    record["game"] = "stud"
    problems = verify_record(resign(record))
    assert problems[0] == "game is 'stud', expected 'holdem' (or absent) or 'draw'"


def test_a_whole_draw_record_verifies_chips_included() -> None:
    """The table's fields too (actions of both betting rounds, pots, final stacks): the chips
    add up (protocol.chips) in every random hand; a pot changed is caught."""
    for seed in range(30):
        record = table_record(play(seed, players=2 + seed % 8, fold_rate=0.15))
        assert verify_record(record) == [], seed
    record["pots"][0]["amount"] += 100
    assert verify_record(resign(record)) != []
