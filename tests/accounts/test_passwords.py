"""Passwords are kept only as Scrypt hashes (issue 15: « a memory-hard KDF from
cryptography »), checked in constant time, with the costs carried by each hash."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.accounts import PasswordError, ScryptParams, check_password, hash_password
from server.accounts import verify_password as verify

FAST = ScryptParams(log2_n=10, r=8, p=1)
"""Cheaper than the default for the property test's many examples (same code path)."""


def test_a_hash_holds_its_parameters_a_salt_and_never_the_password() -> None:
    stored = hash_password("correct horse battery")
    kind, log2_n, r, p, salt, key = stored.split("$")
    assert (kind, log2_n, r, p) == ("scrypt", "15", "8", "1")
    assert len(salt) >= 20 and len(key) >= 40 and "horse" not in stored
    assert hash_password("correct horse battery") != stored  # a new salt each time
    assert verify(stored, "correct horse battery")
    assert not verify(stored, "correct horse batterz")


@settings(max_examples=15, deadline=None)
@given(st.text(min_size=10, max_size=40), st.text(min_size=1, max_size=40))
def test_only_the_same_password_verifies(password: str, other: str) -> None:
    stored = hash_password(password, FAST)
    assert verify(stored, password)
    assert verify(stored, password + other) is False


@pytest.mark.parametrize(
    "stored",
    [
        "",
        "bcrypt$10$abc",
        "scrypt$15$8$1$salt",
        "scrypt$x$8$1$c2FsdA$a2V5",
        "scrypt$40$8$1$c2FsdA$a2V5",  # asks for unbounded work: not ours
        "scrypt$15$8$1$!!$??",
    ],
)
def test_a_malformed_or_foreign_hash_never_verifies(stored: str) -> None:
    assert verify(stored, "anything at all") is False


def test_a_password_over_the_maximum_is_not_even_hashed() -> None:
    stored = hash_password("a reasonable one", FAST)
    assert verify(stored, "x" * 10_000) is False


@pytest.mark.parametrize(
    ("password", "login"),
    [("short", ""), ("x" * 257, ""), ("aaaaaaaaaaaa", ""), ("Marie-Curie", "marie-curie")],
)
def test_the_policy_refuses_weak_passwords(password: str, login: str) -> None:
    with pytest.raises(PasswordError):
        check_password(password, login)
    check_password("a much better one", login)
