"""Acceptance: hostile input against a running server with two tables.

The table "friends" has two honest players and the attacker's seat; the table "annex" has two
players and a spectator who must not notice anything. Every bad frame or command gets an
Error with a stable code (protocol/errors.py, or ``rule.*``); the server stays up, the other
clients keep playing hands with contiguous sequences and their chips are untouched.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest

from protocol import PROTOCOL_VERSION, ErrorCode, encode
from protocol import messages as m
from protocol.codec import to_wire
from server.tokens import NonceBook, TokenAuthority

from .conftest import Launch
from .wsclient import (
    TABLE,
    Player,
    Server,
    WsClient,
    hands_done,
    join,
    spectate,
    table_config,
    wait_hands,
)

ANNEX = "annex"
STABLE = {code.value for code in ErrorCode}


def pack(data: Any) -> bytes:
    return msgpack.packb(data, use_bin_type=True)  # type: ignore[no-any-return]


def stable(code: str) -> bool:
    return code in STABLE or (code.startswith("rule.") and len(code) > 5)


@dataclass
class Arena:
    server: Server
    friends: dict[int, WsClient]
    annex: dict[int, WsClient]
    rail: WsClient
    players: dict[str, Player] = field(default_factory=dict)

    @property
    def observers(self) -> list[WsClient]:
        return [*self.annex.values(), self.rail]


async def arena(launch: Launch, gate: asyncio.Event | None = None) -> Arena:
    """Start the server with both tables and the honest players. With ``gate``, the player
    at friends seat 1 answers only while the gate is set."""
    fast = {"action_seconds": 2.0, "time_bank_seconds": 0.2}
    server = launch(tables=(table_config(TABLE, **fast), table_config(ANNEX, **fast)))
    annex = {s: await join(server.port, server.invites[ANNEX], s, f"a{s}", ANNEX) for s in (1, 2)}
    friends = {s: await join(server.port, server.invite, s, f"f{s}") for s in (1, 2)}
    rail = await spectate(server.port, server.invites[ANNEX], "rail", ANNEX)
    a = Arena(server, friends, annex, rail)
    for s, client in annex.items():
        a.players[f"a{s}"] = Player(client, seed=s, table=ANNEX)

    def gated(player: Player, rng: random.Random) -> tuple[str, int | None] | None:
        return ("call", None) if gate is None or gate.is_set() else None

    a.players["f1"] = Player(friends[1], gated, seed=1)
    a.players["f2"] = Player(friends[2], seed=2)
    await wait_hands(annex[1], 2, timeout=10, table=ANNEX)
    await wait_hands(friends[1], 2, timeout=10)
    return a


def chip_chain(client: WsClient, table: str, starting: int = 10_000) -> list[str]:
    """Each hand starts with the stacks the last one left, and no chip appears or vanishes
    (``client`` must have sat first: it saw every seat taken)."""
    problems = []
    stacks: dict[int, int] = {}
    joined = gone = 0
    for x in client.messages:
        if getattr(x, "table", None) != table:
            continue
        if isinstance(x, m.Snapshot):
            # the sitter's own seat comes in his snapshot (its seq is his seated event's)
            stacks = {e["seat"]: e["stack"] for e in x.state["seats"]}
            joined, gone = len(stacks), 0
        elif isinstance(x, m.SeatEvent) and x.status == "seated":
            joined += 1
            stacks[x.seat] = x.stack
        elif isinstance(x, m.SeatEvent) and x.status in ("busted", "left"):
            gone += stacks.pop(x.seat, 0)
        elif isinstance(x, m.HandStart):
            if any(stacks.get(int(s)) != v for s, v in x.stacks.items()):
                problems.append(f"hand {x.hand} starts with {x.stacks}, the table had {stacks}")
        elif isinstance(x, m.HandEnd):
            stacks.update({int(s): v for s, v in x.stacks.items()})
            if sum(stacks.values()) + gone != starting * joined:
                problems.append(f"hand {x.hand}: {sum(stacks.values())} + {gone} chips")
    return problems


async def check_unharmed(a: Arena, since: dict[str, int]) -> None:
    """The server is up, the annex kept dealing during the attacks and its clients saw
    nothing: no error, no gap, chips untouched. The honest friends players too."""
    assert a.server.healthy()
    assert a.server.proc is not None and a.server.proc.poll() is None
    await wait_hands(a.annex[1], since[ANNEX] + 3, 10, ANNEX)
    await wait_hands(a.friends[1], len(hands_done(a.friends[1])) + 2, 15)
    for client in [*a.observers, *a.friends.values()]:
        assert not client.gaps and not client.bad_frames and not client.failures, client.name
        assert not client.of(m.Error), (client.name, client.of(m.Error))
    assert chip_chain(a.annex[1], ANNEX) == []
    assert chip_chain(a.friends[1], TABLE) == []


def hands_so_far(a: Arena) -> dict[str, int]:
    return {ANNEX: len(hands_done(a.annex[1], ANNEX)), TABLE: len(hands_done(a.friends[1]))}


async def expect(client: WsClient, frame: bytes | str, code: str) -> m.Error:
    error = await client.request_error(frame)
    assert error.code == code, (frame[:80], error)
    assert stable(error.code)
    return error


# ---------------------------------------------------------------------- malformed frames


@pytest.mark.asyncio
async def test_malformed_frames_get_stable_errors_and_harm_nobody(launch: Launch) -> None:
    a = await arena(launch)
    since = hands_so_far(a)
    bad = await WsClient.connect(a.server.port, "mallory")
    # nothing before hello but ping
    await expect(bad, encode(m.Act(table=TABLE, hand=1, verb="allin")), "not_authenticated")
    await bad.send(m.Ping(nonce=7))
    await bad.wait_type(m.Pong, 3, nonce=7)
    await expect(bad, encode(m.Hello(version=PROTOCOL_VERSION + 1)), "version_mismatch")
    assert isinstance(await bad.hello(a.server.invite, "mallory"), m.Welcome)

    rng = random.Random(5)
    for _ in range(20):  # random bytes (0xc1 is never valid msgpack)
        await expect(bad, b"\xc1" + rng.randbytes(rng.randrange(1, 300)), "bad_frame")
    hello = encode(m.Hello(version=PROTOCOL_VERSION, nickname="x" * 40))
    for cut in (1, len(hello) // 2, len(hello) - 1):  # truncated msgpack
        await expect(bad, hello[:cut], "bad_frame")
    await expect(bad, "a text frame", "bad_frame")
    await expect(bad, pack([1, 2, 3]), "bad_frame")  # not a map
    await expect(bad, pack({1: 2}), "bad_frame")  # keys must be strings
    await expect(bad, pack({"t": "nuke"}), "unknown_type")
    await expect(bad, pack({"t": 5}), "unknown_type")
    await expect(bad, pack({"table": TABLE}), "bad_frame")  # a map without "t"
    await expect(bad, pack({"t": "act", "table": TABLE}), "missing_field")
    act = to_wire(m.Act(table=TABLE, hand=1, verb="call"))
    await expect(bad, pack({**act, "seat": 1}), "unknown_field")  # no acting for a seat
    # wrong types
    await expect(bad, pack({"t": "hello", "version": "1"}), "bad_type")
    await expect(bad, pack({**act, "hand": "1"}), "bad_type")
    await expect(bad, pack({**act, "table": 7}), "bad_type")
    await expect(bad, pack({**act, "amount": True}), "bad_type")
    await expect(bad, pack({**act, "amount": 1.5}), "bad_type")
    await expect(bad, pack({**act, "chips": "100"}), "bad_type")
    await expect(bad, pack({**act, "chips": [100, None]}), "bad_type")
    await expect(bad, pack({"t": "ping", "nonce": None}), "bad_type")
    # out of range
    await expect(bad, pack({**act, "amount": -1}), "out_of_range")
    await expect(bad, pack({**act, "amount": 2**60}), "out_of_range")
    await expect(bad, pack({**act, "amount": 2**64 - 1}), "out_of_range")
    await expect(bad, pack({**act, "amount": -(2**63)}), "out_of_range")
    await expect(bad, pack({**act, "chips": [100] * 201}), "out_of_range")
    await expect(bad, pack({**act, "chips": [-100]}), "out_of_range")
    await expect(bad, pack({"t": "sit", "table": TABLE, "seat": 11, "token": "x"}), "out_of_range")
    await expect(bad, pack({"t": "chat", "table": TABLE, "text": "x" * 501}), "out_of_range")
    # an oversized frame is refused before decoding
    await expect(bad, pack({"t": "chat", "table": TABLE, "text": "x" * 17_000}), "frame_too_large")
    await expect(bad, b"\xc1" * (16 * 1024 + 1), "frame_too_large")
    # commands for tables one does not sit at
    await expect(bad, encode(m.Act(table=TABLE, hand=1, verb="allin")), "not_seated")
    await expect(bad, encode(m.Act(table="nowhere", hand=1, verb="allin")), "unknown_table")
    await expect(bad, encode(m.JoinTable(table="nowhere")), "unknown_table")
    await expect(bad, encode(m.JoinTable(table=ANNEX)), "bad_token")  # no annex invite
    await expect(bad, encode(m.CreateTable(name="x", bb=0)), "out_of_range")
    await expect(bad, encode(m.CreateTable(name="x", profile="nope")), "out_of_range")
    await bad.send(m.Ping(nonce=8))  # still connected and served
    await bad.wait_type(m.Pong, 3, nonce=8)
    # a frame over the websocket limit closes that connection only
    huge = await WsClient.connect(a.server.port, "huge")
    assert isinstance(await huge.hello(a.server.invite), m.Welcome)
    await huge.send_raw(b"\x00" * 100_000)
    await asyncio.wait_for(huge.closed.wait(), 5)
    assert huge.close_code == 1009
    await check_unharmed(a, since)


# ---------------------------------------------------------------------- flood


@pytest.mark.asyncio
async def test_a_thousand_frames_in_a_second_are_rate_limited(launch: Launch) -> None:
    a = await arena(launch)
    since = hands_so_far(a)
    flood = await WsClient.connect(a.server.port, "flood")
    assert isinstance(await flood.hello(a.server.invite, "flood"), m.Welcome)
    mark = len(flood.messages)
    t0 = time.monotonic()
    for k in range(1000):
        await flood.send(m.Ping(nonce=k))
        if k % 50 == 49:
            await asyncio.sleep(max(0.0, t0 + (k + 1) / 1000 - time.monotonic()))
    await asyncio.sleep(0.3)
    pongs = flood.of(m.Pong, since=mark)
    limited = [e for e in flood.of(m.Error, since=mark) if e.code == "rate_limited"]
    assert limited and all(stable(e.code) for e in flood.of(m.Error, since=mark))
    assert 50 <= len(pongs) <= 400, len(pongs)
    assert len(limited) <= 5  # one error a second, not one per frame
    await asyncio.sleep(1.0)  # the bucket refills: served again, still connected
    await flood.send(m.Ping(nonce=424242))
    assert (await flood.wait_type(m.Pong, 3, nonce=424242)).nonce == 424242
    await check_unharmed(a, since)


# ---------------------------------------------------------------------- tokens


@pytest.mark.asyncio
async def test_forged_expired_and_replayed_tokens_are_refused(launch: Launch) -> None:
    a = await arena(launch)
    since = hands_so_far(a)
    invite = a.server.invite
    forger = TokenAuthority(b"\x01" * 32, time.time, NonceBook(lambda k: None, lambda k, v: None))
    secret = (a.server.data / "token-secret").read_text().strip()  # the server's own file
    real = TokenAuthority(
        bytes.fromhex(secret), time.time, NonceBook(lambda k: None, lambda k, v: None)
    )

    async def hello_error(token: str, code: str) -> None:
        client = await WsClient.connect(a.server.port, "mallory")
        answer = await client.hello(token)
        assert isinstance(answer, m.Error) and answer.code == code, answer
        await client.close()

    await hello_error(forger.invite(TABLE), "bad_token")
    await hello_error(forger.seat(TABLE, 1, "pid", "f1"), "bad_token")
    await hello_error("not-a-token", "bad_token")
    await hello_error(
        invite[:-4] + ("AAAA" if not invite.endswith("AAAA") else "BBBB"), "bad_token"
    )
    body, _, sig = invite.partition(".")
    await hello_error(body[:-2] + "xx." + sig, "bad_token")  # claims changed, same signature
    await hello_error(real.issue({"k": "invite", "t": TABLE}, ttl=-60), "token_expired")
    await hello_error(
        real.issue({"k": "seat", "t": TABLE, "s": 1, "p": "x", "n": "f1", "j": "x"}, ttl=-60),
        "token_expired",
    )

    # an invite of the other table, or a forged one, does not seat anybody
    mallory = await WsClient.connect(a.server.port, "mallory")
    assert isinstance(await mallory.hello(invite), m.Welcome)
    for token, code in (
        (a.server.invites[ANNEX], "bad_token"),
        (forger.invite(TABLE), "bad_token"),
        (real.issue({"k": "invite", "t": TABLE}, ttl=-60), "token_expired"),
        (real.issue({"k": "director", "t": TABLE}, ttl=60), "bad_token"),
    ):
        answer = await mallory.take_seat(5, token)
        assert isinstance(answer, m.Error) and answer.code == code, (token, answer)
    # seats: taken, or none such
    for seat, code in ((1, "seat_taken"), (0, "bad_seat"), (10, "bad_seat")):
        answer = await mallory.take_seat(seat, invite)
        assert isinstance(answer, m.Error) and answer.code == code, (seat, answer)

    # the seat token rotates at each login; once the newest was used, older ones are replays
    first = await join(a.server.port, invite, 4, "rotor")
    t1 = first.seat_token
    assert t1 is not None
    second = await WsClient.connect(a.server.port, "rotor2")
    assert isinstance(await second.hello(t1), m.Welcome)
    t2 = (await second.wait_type(m.Seated, 3)).token
    await second.send(m.JoinTable(table=TABLE, last_seq=first.last_seq()))
    await asyncio.wait_for(first.closed.wait(), 5)  # the older connection is replaced
    assert any(e.code == "replaced" for e in first.of(m.Error))
    third = await WsClient.connect(a.server.port, "rotor3")
    assert isinstance(await third.hello(t2), m.Welcome)
    await third.wait_type(m.Seated, 3)
    Player(third, seed=4)
    await third.send(m.JoinTable(table=TABLE, last_seq=second.last_seq()))
    await hello_error(t1, "token_replayed")
    await hello_error(t1, "token_replayed")
    await check_unharmed(a, since)


# ---------------------------------------------------------------------- acting for another


@pytest.mark.asyncio
async def test_nobody_acts_for_another_seat(launch: Launch) -> None:
    gate = asyncio.Event()
    gate.set()
    a = await arena(launch, gate)
    since = hands_so_far(a)
    attacker = await join(a.server.port, a.server.invite, 3, "mallory")
    Player(attacker, seed=3)
    # wait for a turn of seat 1, which then thinks (the gate is closed)
    gate.clear()
    f1 = a.friends[1]
    turn = await f1.wait_type(m.ClockEvent, 10, since=len(f1.messages), kind="action", seat=1)
    hand = turn.hand
    mark = len(attacker.messages)

    act = to_wire(m.Act(table=TABLE, hand=hand, verb="allin"))
    await expect(attacker, pack({**act, "seat": 1}), "unknown_field")
    await expect(attacker, pack({**act, "player": "1"}), "unknown_field")
    await expect(attacker, encode(m.Act(table=TABLE, hand=hand + 7, verb="fold")), "stale_hand")
    await expect(attacker, encode(m.Act(table=TABLE, hand=hand, verb="dance")), "out_of_range")
    await expect(attacker, encode(m.UseTimeBank(table=TABLE, hand=hand)), "not_your_turn")
    await expect(attacker, encode(m.Cut(table=TABLE, hand=hand, position=3)), "not_your_turn")
    await expect(attacker, encode(m.CallClock(table=TABLE, hand=hand)), "too_early")
    await expect(attacker, encode(m.Show(table=TABLE, hand=hand)), "show_refused")
    # the attacker's own declaration out of turn: recorded for the attacker's seat at most
    await attacker.send(m.Act(table=TABLE, hand=hand, verb="fold", id=99))
    answer = await attacker.wait_for(
        lambda x: (isinstance(x, m.Error) and x.ref == 99) or isinstance(x, m.Notice), 3, mark
    )
    assert isinstance(answer, m.Notice) or stable(answer.code), answer
    await asyncio.sleep(0.3)
    after = f1.messages[f1.messages.index(turn) :]
    assert [x for x in after if isinstance(x, m.ActionEvent) and x.seat == 1] == []
    # seat 1 decides for itself
    gate.set()
    await a.players["f1"].act(hand, "call", None)
    mine = await f1.wait_type(m.ActionEvent, 3, since=f1.messages.index(turn), seat=1)
    assert mine.hand == hand and "clock expired" not in mine.note
    assert all(stable(e.code) for e in attacker.of(m.Error))
    await check_unharmed(a, since)
