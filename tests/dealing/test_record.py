"""Signed hand records from a real deck: the verifier accepts them and catches every lie."""

from __future__ import annotations

import copy
import json
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from protocol.verify import check_opening, main, verify_record
from server.dealing import (
    DealingError,
    Deck,
    Signer,
    deal_layout,
    fairness_fields,
    hand_record,
    hole_openings,
)

ROOT = Path(__file__).resolve().parents[2]
ORDER = [4, 5, 6, 1, 2, 3]  # button on seat 3: seat 4 gets the first card
SHOWN = [5, 1]


@pytest.fixture(scope="module")
def signer(tmp_path_factory: pytest.TempPathFactory) -> Signer:
    return Signer.load_or_create(tmp_path_factory.mktemp("keys") / "server.pem")


@pytest.fixture(scope="module")
def deck() -> Deck:
    deck = Deck.shuffled()  # real CSPRNG and salts
    deck.apply_cut(123_457)  # the cutter may send any integer
    return deck


@pytest.fixture(scope="module")
def record(signer: Signer, deck: Deck) -> dict[str, Any]:
    unsigned = hand_record(
        table="t1",
        hand=42,
        profile="cdc",
        deck=deck,
        layout=deal_layout(len(ORDER)),
        order=ORDER,
        board_dealt=5,
        shown=SHOWN,
        extra={"actions": [["4", "raise", 300]], "results": {"5": 1200}, "note": "été"},
    )
    return signer.sign_record(unsigned)


def fresh(record: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(record)


def cli(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "protocol.verify", str(path), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def write(tmp_path: Path, record: dict[str, Any], name: str = "hand.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


# --- a valid record --------------------------------------------------------------------


def test_the_record_verifies_with_the_cli(
    tmp_path: Path, record: dict[str, Any], signer: Signer
) -> None:
    path = write(tmp_path, record)
    done = cli(path)
    assert (done.returncode, done.stdout) == (0, "OK\n"), done.stdout + done.stderr
    done = cli(path, "--key", signer.public_key_hex.upper())
    assert (done.returncode, done.stdout) == (0, "OK\n"), done.stdout + done.stderr


def test_the_record_opens_exactly_the_board_and_the_shown_hands(
    record: dict[str, Any], deck: Deck
) -> None:
    layout = deal_layout(len(ORDER))
    board = {deck.position(s) for s in layout.board}
    shown = {
        deck.position(s) for i, seat in enumerate(ORDER) if seat in SHOWN for s in layout.hole[i]
    }
    opened = [o["position"] for o in record["opened"]]
    assert sorted(opened) == opened
    assert set(opened) == board | shown and len(opened) == 9
    assert record["cut"] == 123_457 % 52
    assert record["board"] == [
        o.to_json()["card"] for o in deck.opening(deck.position(s) for s in layout.board)
    ]
    assert set(record["shown"]) == {"5", "1"}
    assert record["deal_order"] == ["4", "5", "6", "1", "2", "3"]
    assert record["slots"]["hole"]["4"] == [0, 6]
    assert record["public_key"] == record["public_key"].lower() and len(record["signature"]) == 128


def test_a_hand_folded_preflop_opens_nothing(signer: Signer) -> None:
    deck = Deck.shuffled()
    deck.apply_random_cut()
    layout = deal_layout(3)
    unsigned = hand_record(
        table="t", hand=1, profile="tda", deck=deck, layout=layout, order=[7, 8, 9], board_dealt=0
    )
    signed = signer.sign_record(unsigned)
    assert signed["opened"] == [] and signed["board"] == [] and signed["shown"] == {}
    assert verify_record(signed) == []


@pytest.mark.parametrize("board_dealt", [3, 4])
def test_a_partial_board_opens_only_the_cards_dealt(signer: Signer, board_dealt: int) -> None:
    deck = Deck.shuffled()
    deck.apply_cut(0)
    layout = deal_layout(2)
    signed = signer.sign_record(
        hand_record(
            table="t",
            hand=2,
            profile="tda",
            deck=deck,
            layout=layout,
            order=[1, 2],
            board_dealt=board_dealt,
        )
    )
    assert len(signed["opened"]) == board_dealt
    assert verify_record(signed) == []
    # Opening the next (undealt) board card is rabbit hunting, even when signed.
    (turn_or_river,) = deck.opening([deck.position(layout.board[board_dealt])])
    hunted = fresh(signed)
    hunted["opened"].append(turn_or_river.to_json())
    problems = verify_record(signer.sign_record(hunted))
    assert any("rabbit hunting" in p for p in problems), problems


def test_a_player_checks_his_own_hole_cards_privately(record: dict[str, Any], deck: Deck) -> None:
    layout = deal_layout(len(ORDER))
    for i in range(len(ORDER)):
        openings = hole_openings(deck, layout, i)
        for slot, opening in zip(layout.hole[i], openings, strict=True):
            expected = (record["cut"] + slot) % 52
            assert (
                check_opening(opening.to_json(), record["root"], expected_position=expected) == []
            )


# --- tampering -------------------------------------------------------------------------


def test_wrong_key_fails(tmp_path: Path, record: dict[str, Any]) -> None:
    done = cli(write(tmp_path, record), "--key", Signer.generate().public_key_hex)
    assert done.returncode == 1
    assert "not the expected key" in done.stdout
    assert verify_record(record, Signer.generate().public_key_hex)


def test_any_record_signed_by_another_key_is_caught(record: dict[str, Any], signer: Signer) -> None:
    forged = Signer.generate().sign_record(record)
    assert verify_record(forged) == []  # self-consistent...
    assert verify_record(forged, signer.public_key_hex)  # ...but not the server's


def test_each_opened_card_altered_fails(
    tmp_path: Path, record: dict[str, Any], signer: Signer
) -> None:
    for i, opening in enumerate(record["opened"]):
        for other in ("2c", "As"):
            if other == opening["card"]:
                continue
            bad = fresh(record)
            bad["opened"][i]["card"] = other
            problems = verify_record(bad)
            assert any("signature" in p for p in problems), problems
            # Even re-signed by the server, the commitment does not move.
            problems = verify_record(signer.sign_record(bad), signer.public_key_hex)
            assert any("does not reach the root" in p for p in problems), problems
    bad = fresh(record)
    bad["opened"][0]["card"] = "As" if bad["opened"][0]["card"] != "As" else "2c"
    done = cli(write(tmp_path, bad))
    assert done.returncode == 1 and "does not reach the root" in done.stdout
    assert "OK" not in done.stdout


def test_each_board_or_shown_card_altered_fails(record: dict[str, Any], signer: Signer) -> None:
    for i in range(len(record["board"])):
        bad = fresh(record)
        bad["board"][i] = "As" if bad["board"][i] != "As" else "2c"
        problems = verify_record(signer.sign_record(bad))
        assert any(p.startswith(f"board card {i + 1}") for p in problems), problems
    for seat in record["shown"]:
        bad = fresh(record)
        bad["shown"][seat][1] = "As" if bad["shown"][seat][1] != "As" else "2c"
        problems = verify_record(signer.sign_record(bad))
        assert any(f"seat {seat} shows" in p for p in problems), problems


def test_altered_signature_fails(tmp_path: Path, record: dict[str, Any]) -> None:
    bad = fresh(record)
    sig = bad["signature"]
    bad["signature"] = ("0" if sig[0] != "0" else "1") + sig[1:]
    done = cli(write(tmp_path, bad))
    assert done.returncode == 1 and "signature does not match" in done.stdout
    del bad["signature"]
    assert any("signature is missing" in p for p in verify_record(bad))


def test_any_opaque_field_altered_breaks_the_signature(record: dict[str, Any]) -> None:
    bad = fresh(record)
    bad["results"]["5"] = 1300
    assert verify_record(bad) == [
        "signature does not match the record (altered or signed by another key)"
    ]


@pytest.mark.parametrize("delta", [1, 7, 51])
def test_altered_cut_fails(record: dict[str, Any], signer: Signer, delta: int) -> None:
    bad = fresh(record)
    bad["cut"] = (bad["cut"] + delta) % 52
    assert any("signature" in p for p in verify_record(bad))
    problems = verify_record(signer.sign_record(bad))
    assert any("no opening at position" in p or "opening at position" in p for p in problems), (
        problems
    )


def test_altered_root_fails(record: dict[str, Any], signer: Signer) -> None:
    bad = fresh(record)
    bad["root"] = Deck.shuffled().root_hex
    assert any("signature" in p for p in verify_record(bad))
    problems = verify_record(signer.sign_record(bad))
    assert sum("does not reach the root" in p for p in problems) == len(record["opened"])


def test_opening_an_undealt_burnt_or_mucked_position_fails(
    tmp_path: Path, record: dict[str, Any], signer: Signer, deck: Deck
) -> None:
    layout = deal_layout(len(ORDER))
    undealt = deck.position(layout.slots_used)
    burn = deck.position(layout.burns[0])
    mucked = deck.position(layout.hole[ORDER.index(6)][0])
    for position in (undealt, burn, mucked):
        bad = fresh(record)
        bad["opened"].append(deck.opening([position])[0].to_json())
        problems = verify_record(signer.sign_record(bad))
        assert any(f"position {position} " in p and "rabbit hunting" in p for p in problems), (
            problems
        )
    done = cli(write(tmp_path, signer.sign_record(bad)))
    assert done.returncode == 1 and "rabbit hunting" in done.stdout


def test_duplicate_openings_fail(record: dict[str, Any], signer: Signer) -> None:
    bad = fresh(record)
    bad["opened"].append(copy.deepcopy(bad["opened"][0]))
    problems = verify_record(signer.sign_record(bad))
    assert any("opened twice" in p for p in problems), problems


def test_rearranged_slots_fail(record: dict[str, Any], signer: Signer) -> None:
    # A server that picked, after the cut, which slots make the board would be caught.
    bad = fresh(record)
    bad["slots"]["board"] = [s + 1 for s in bad["slots"]["board"]]
    problems = verify_record(signer.sign_record(bad))
    assert any("slots.board" in p for p in problems), problems
    bad = fresh(record)
    hole = bad["slots"]["hole"]
    hole["4"], hole["5"] = hole["5"], hole["4"]
    problems = verify_record(signer.sign_record(bad))
    assert any("deal_order" in p for p in problems), problems
    bad = fresh(record)
    bad["players_dealt"] = 7
    assert verify_record(signer.sign_record(bad))


def test_showing_a_seat_not_dealt_in_fails(record: dict[str, Any], signer: Signer) -> None:
    bad = fresh(record)
    bad["shown"]["9"] = bad["shown"]["5"]
    problems = verify_record(signer.sign_record(bad))
    assert any("seat 9 was not dealt in" in p for p in problems), problems


@pytest.mark.parametrize(
    "mutate",
    [
        lambda r: r.pop("opened"),
        lambda r: r.update(format="other/1"),
        lambda r: r.update(cut="3"),
        lambda r: r.update(root="zz"),
        lambda r: r.update(slots=None),
        lambda r: r["opened"][0].update(proof="x"),
        lambda r: r["opened"][0].update(position=True),
        lambda r: r["opened"][0].update(salt="00"),
        lambda r: r.update(board=["As"]),
    ],
)
def test_malformed_records_are_reported_not_crashed(
    record: dict[str, Any], signer: Signer, mutate: Any
) -> None:
    bad = fresh(record)
    mutate(bad)
    assert verify_record(signer.sign_record(bad))


def test_cli_reports_unreadable_input(
    tmp_path: Path, record: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    assert main([str(path)]) == 1
    path.write_text('{"format": 1, "format": 2}', encoding="utf-8")
    assert main([str(path)]) == 1
    assert "duplicate key 'format'" in capsys.readouterr().out
    path.write_text("[]", encoding="utf-8")
    assert main([str(path)]) == 1
    assert main([str(tmp_path / "missing.json")]) == 1
    assert main([str(write(tmp_path, record))]) == 0
    assert capsys.readouterr().out.endswith("OK\n")


# --- building and signing --------------------------------------------------------------


def test_key_file_is_created_0600_and_reloaded(tmp_path: Path) -> None:
    path = tmp_path / "key.pem"
    first = Signer.load_or_create(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    assert Signer.load_or_create(path).public_key_hex == first.public_key_hex
    assert [p.name for p in tmp_path.iterdir()] == ["key.pem"]  # no temporary left behind
    assert first.public_key_hex in repr(first) and "PRIVATE" not in repr(first)


def test_a_key_file_of_another_kind_is_refused(tmp_path: Path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    path = tmp_path / "ec.pem"
    path.write_bytes(
        ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    with pytest.raises(ValueError, match="Ed25519"):
        Signer.load_or_create(path)


def test_signing_normalises_through_json(signer: Signer) -> None:
    signed = signer.sign_record(
        {"hand": 1, "seats": {10: "a", 9: "b"}, "pair": (1, 2), "signature": "x"}
    )
    assert signed["seats"] == {"10": "a", "9": "b"} and signed["pair"] == [1, 2]
    assert signed["signature"] != "x"
    with pytest.raises(ValueError):
        signer.sign_record({"x": float("nan")})


def test_building_refuses_inconsistent_input(deck: Deck) -> None:
    layout = deal_layout(len(ORDER))
    with pytest.raises(ValueError):
        fairness_fields(deck=deck, layout=layout, order=ORDER[:-1], board_dealt=5)
    with pytest.raises(ValueError):
        fairness_fields(deck=deck, layout=layout, order=[*ORDER[:-1], 4], board_dealt=5)
    with pytest.raises(ValueError):
        fairness_fields(deck=deck, layout=layout, order=ORDER, board_dealt=2)
    with pytest.raises(ValueError):
        fairness_fields(deck=deck, layout=layout, order=ORDER, board_dealt=5, shown=[9])
    with pytest.raises(DealingError):
        fairness_fields(deck=Deck.shuffled(), layout=layout, order=ORDER, board_dealt=5)
    with pytest.raises(ValueError, match="extra"):
        hand_record(
            table="t",
            hand=1,
            profile="cdc",
            deck=deck,
            layout=layout,
            order=ORDER,
            board_dealt=5,
            extra={"opened": []},
        )
