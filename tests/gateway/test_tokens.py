"""Seat and invite tokens: signed, expiring, bound to a seat, rotating against replay."""

from __future__ import annotations

import pytest

from protocol.errors import ErrorCode, ProtocolError
from server.tokens import NonceBook, TokenAuthority


def authority(now: list[float]) -> TokenAuthority:
    meta: dict[str, str] = {}
    return TokenAuthority(b"k" * 32, lambda: now[0], NonceBook(meta.get, meta.__setitem__))


def code(auth: TokenAuthority, token: str) -> str:
    with pytest.raises(ProtocolError) as err:
        auth.verify(token)
    return err.value.code


def test_forged_and_expired_tokens_are_refused() -> None:
    now = [1000.0]
    auth = authority(now)
    invite = auth.invite("t1", ttl=60)
    assert auth.verify(invite, "invite")["t"] == "t1"
    body, _, sig = invite.partition(".")
    assert code(auth, body + "." + sig[:-2] + "AA") == ErrorCode.BAD_TOKEN
    other = TokenAuthority(b"x" * 32, lambda: now[0], NonceBook(dict().get, lambda k, v: None))
    assert code(auth, other.invite("t1")) == ErrorCode.BAD_TOKEN
    assert code(auth, "garbage") == ErrorCode.BAD_TOKEN
    now[0] += 61
    assert code(auth, invite) == ErrorCode.TOKEN_EXPIRED


def test_seat_tokens_rotate_with_one_step_of_grace() -> None:
    now = [1000.0]
    auth = authority(now)
    first = auth.seat("t1", 3, "p1", "ana")
    claims = auth.verify(first)
    assert (claims["s"], claims["p"]) == (3, "p1")
    second = auth.seat("t1", 3, "p1", "ana", used=claims["j"])
    # the connection dropped before "seated" arrived: the old token still works once
    again = auth.verify(first)
    third = auth.seat("t1", 3, "p1", "ana", used=again["j"])
    assert code(auth, second) == ErrorCode.TOKEN_REPLAYED  # superseded, never used
    auth.verify(third)  # the newest arrives: everything older is dead
    assert code(auth, first) == ErrorCode.TOKEN_REPLAYED
    assert auth.verify(third)["p"] == "p1"
