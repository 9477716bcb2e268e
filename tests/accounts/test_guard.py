"""Guessing is slowed per login and per address, each guess counted before its hash runs
(issue 26: « concurrency beats the guess limit »; « a stranger can lock a member out »)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from server.accounts import GuessGuard

CAPS = {"login": 10, "address": 5, "trusted": 10, "member": 10}
HOUR = 3600.0


def stranger(login: str, address: str) -> tuple[str, ...]:
    return (f"login:{login}", f"address:{address}")


def test_a_burst_is_counted_before_any_check_and_refused_without_spending() -> None:
    guard = GuessGuard(CAPS)
    # 16 guesses sent at once: each one is counted when it arrives, none waits for a hash
    answers = [guard.take(stranger("ana", "10.0.0.2"), 100.0) for _ in range(16)]
    assert answers[:5] == [0.0] * 5 and all(wait > 0 for wait in answers[5:])
    # refused guesses spent nothing: the login still has the five the address did not take
    assert guard.level("login:ana", 100.0) == 5
    # the address waits for one token: 12 minutes at 5 an hour
    assert abs(guard.take(stranger("bob", "10.0.0.2"), 100.0) - 720.0) < 1e-6


def test_one_address_alone_never_locks_a_login_and_the_member_gets_in() -> None:
    guard = GuessGuard(CAPS)
    now = 0.0
    taken = 0
    for step in range(3600):  # a stranger trying every second for an hour
        now = float(step)
        taken += guard.take(stranger("ana", "10.0.0.2"), now) == 0
    assert taken <= guard.bound("address", HOUR)
    # the login's bucket kept tokens for the member, from any other address
    assert guard.level("login:ana", now) >= 5
    assert guard.take(stranger("ana", "192.0.2.7"), now) == 0


def test_a_right_guess_gets_its_tokens_back_and_trusted_guesses_are_apart() -> None:
    guard = GuessGuard(CAPS)
    keys = stranger("ana", "10.0.0.2")
    for _ in range(4):
        assert guard.take(keys, 0.0) == 0
    guard.refund(keys, 0.0)  # the fourth was right
    assert guard.level("address:10.0.0.2", 0.0) == 2 and guard.level("login:ana", 0.0) == 7
    # strangers elsewhere empty the login's bucket: the member's own devices do not care
    for n in range(40):
        guard.take(stranger("ana", f"10.1.0.{n}"), 1.0)
    assert guard.take(stranger("ana", "192.0.2.7"), 1.0) > 0
    assert guard.take(("trusted:ana",), 1.0) == 0
    assert guard.level("trusted:ana", 1.0) == 9


def test_refunds_never_overfill_and_unlimited_kinds_are_free() -> None:
    guard = GuessGuard({"login": 2})
    guard.refund(("login:ana",), 0.0)
    assert guard.level("login:ana", 0.0) == 2
    assert guard.take(("login:ana",), 0.0) == 0
    guard.refund(("login:ana",), 0.0)
    guard.refund(("login:ana",), 0.0)
    assert guard.level("login:ana", 0.0) == 2
    for _ in range(100):
        assert guard.take(("address:x",), 0.0) == 0  # no capacity for addresses: no limit
    assert len(guard) == 1


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(min_value=0, max_value=3 * HOUR),  # when the guess arrives
            st.integers(min_value=0, max_value=50),  # from which address
            st.booleans(),  # a right guess (its tokens come back)
        ),
        max_size=400,
    )
)
def test_the_guesses_a_login_gets_in_any_hour_are_bounded(
    attempts: list[tuple[float, int, bool]],
) -> None:
    """Whatever the arrivals (any number at the same instant, from any addresses), the wrong
    guesses checked for one login in any hour are at most 2 x guesses_per_login."""
    guard = GuessGuard(CAPS)
    checked: list[float] = []
    for at, address, right in sorted(attempts):
        keys = stranger("ana", f"10.0.0.{address}")
        if guard.take(keys, at) == 0:
            if right:
                guard.refund(keys, at)
            else:
                checked.append(at)
    bound = guard.bound("login", HOUR)
    assert bound == 20
    for start in checked:
        assert sum(start <= t < start + HOUR for t in checked) <= bound


def test_memory_is_bounded_and_drained_keys_are_forgotten_last() -> None:
    guard = GuessGuard({"login": 3, "address": 3}, most_keys=100)
    for _ in range(3):
        guard.take(("login:ana",), 0.0)  # drained: the key an attacker wants forgotten
    for k in range(1_000):
        guard.take((f"address:{k}",), float(k) / 1000)
    assert len(guard) <= 100
    assert guard.level("login:ana", 1.0) < 1
