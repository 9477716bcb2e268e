"""Guessing is slowed per login and per address (issue 15: « rate-limited attempts »)."""

from __future__ import annotations

from server.accounts import AttemptGuard


def test_five_failures_lock_the_key_and_each_lockout_doubles() -> None:
    guard = AttemptGuard(failures=5, window=900, lockout=300, max_lockout=3600)
    for k in range(4):
        guard.failed("login:ana", 100.0 + k)
        assert guard.wait("login:ana", 100.0 + k) == 0
    guard.failed("login:ana", 104.0)
    assert guard.wait("login:ana", 104.0) == 300
    assert guard.wait("login:bob", 104.0) == 0  # other keys are free
    for k in range(5):
        guard.failed("login:ana", 500.0 + k)
    assert guard.wait("login:ana", 504.0) == 600
    for lap in range(6):
        for k in range(5):
            guard.failed("login:ana", 10_000.0 * (lap + 1) + k)
    assert guard.wait("login:ana", 60_004.0) == 3600  # capped


def test_old_failures_expire_and_a_success_clears_the_key() -> None:
    guard = AttemptGuard(failures=3, window=60, lockout=30)
    guard.failed("a", 0.0)
    guard.failed("a", 1.0)
    guard.failed("a", 100.0)  # the first two are older than the window
    assert guard.wait("a", 100.0) == 0
    guard.failed("a", 101.0)
    guard.succeeded("a")
    guard.failed("a", 102.0)
    assert guard.wait("a", 102.0) == 0


def test_memory_is_bounded_under_a_flood_of_keys() -> None:
    guard = AttemptGuard(max_keys=100)
    for k in range(1_000):
        guard.failed(f"address:{k}", float(k))
    assert len(guard._keys) == 100
