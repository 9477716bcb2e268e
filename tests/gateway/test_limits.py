"""The gateway's limits, pure (server/gateway/limits.py, housekeeping.py) and the data
directory's secret file (server/datadir.py)."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server import datadir
from server.gateway.housekeeping import review, sweep_every
from server.gateway.limits import Buckets, Limits, address_key, client_address, origin_allowed


def test_a_bucket_gives_its_capacity_then_refills_over_the_period() -> None:
    b = Buckets(capacity=10, period=3600)
    assert [b.take("a", 0.0) for _ in range(11)] == [True] * 10 + [False]
    assert b.take("b", 0.0)  # another address has its own
    assert not b.take("a", 359.0)
    assert b.take("a", 361.0)  # one every 6 minutes
    assert not b.take("a", 362.0)
    b.give_back("a", 362.0)
    assert b.take("a", 362.0)


def test_an_unlimited_bucket_always_gives_and_keeps_nothing() -> None:
    b = Buckets(capacity=0)
    assert all(b.take(str(i), 0.0) for i in range(1000))
    assert len(b) == 0


@given(st.lists(st.tuples(st.integers(0, 50), st.floats(0, 10)), max_size=300))
def test_buckets_forget_full_keys_and_stay_bounded(takes: list[tuple[int, float]]) -> None:
    b = Buckets(capacity=3, period=1.0, most_keys=20)
    now = 0.0
    given_out: dict[str, list[float]] = {}
    for key, step in takes:
        now += step
        if b.take(str(key), now):
            given_out.setdefault(str(key), []).append(now)
        assert len(b) <= 20
    for times in given_out.values():  # never more than capacity + refill in any window
        for i, t in enumerate(times):
            within = [u for u in times[i:] if u - t < 1.0]
            assert len(within) <= 3 + 3


def test_addresses_are_counted_as_a_person_can_change_them() -> None:
    assert address_key("203.0.113.7") == "203.0.113.7"
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9")
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")
    assert address_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert address_key("fe80::1%eth0") == address_key("fe80::2")
    assert address_key("not an ip") == "not an ip"


def test_only_trusted_proxies_may_name_the_client() -> None:
    trusted = ("10.0.0.1",)
    assert client_address("198.51.100.9", "1.2.3.4", trusted) == "198.51.100.9"
    assert client_address("10.0.0.1", "1.2.3.4", trusted) == "1.2.3.4"
    # a client cannot hide behind an address it writes itself: the right-most untrusted hop
    assert client_address("10.0.0.1", "6.6.6.6, 1.2.3.4", trusted) == "1.2.3.4"
    assert client_address("10.0.0.1", "1.2.3.4, 10.0.0.1", trusted) == "1.2.3.4"
    assert client_address("10.0.0.1", None, trusted) == "10.0.0.1"


@pytest.mark.parametrize(
    ("origin", "host", "allowed", "ok"),
    [
        (None, "poker.example", (), True),  # not a browser
        ("https://poker.example", "poker.example", (), True),
        ("http://127.0.0.1:8000", "127.0.0.1:8000", (), True),
        ("https://evil.example", "poker.example", (), False),
        ("https://poker.example.evil.example", "poker.example", (), False),
        ("null", "poker.example", (), False),
        ("https://club.example", "poker.example", ("https://club.example",), True),
        ("https://CLUB.example/", "poker.example", ("https://club.example",), True),
        ("https://evil.example", "poker.example", ("*",), True),
        ("https://poker.example", None, (), False),
    ],
)
def test_websockets_from_other_sites_are_refused(
    origin: str | None, host: str | None, allowed: tuple[str, ...], ok: bool
) -> None:
    assert origin_allowed(origin, host, allowed) is ok


def test_the_connection_cap_keeps_descriptors_for_the_process() -> None:
    assert Limits().connection_cap(1024) == 1024 - Limits().reserve_files
    assert Limits(max_connections=100).connection_cap(1024) == 100
    assert Limits().connection_cap(10) == 16


def test_an_unused_table_goes_after_its_minutes_a_used_one_after_its_hours() -> None:
    limits = Limits(unused_table_minutes=60, idle_table_hours=24)
    seen, drop = review(None, 0.0, 0, watched=False, seated=False, limits=limits)
    assert not drop
    seen, drop = review(seen, 3599.0, 0, watched=False, seated=False, limits=limits)
    assert not drop
    _, drop = review(seen, 3600.0, 0, watched=False, seated=False, limits=limits)
    assert drop
    seen, _ = review(None, 0.0, 0, watched=True, seated=True, limits=limits)  # played
    seen, drop = review(seen, 10.0, 3, watched=False, seated=True, limits=limits)
    assert not drop and seen.active_at == 10.0  # a hand was dealt: active
    _, drop = review(seen, 10.0 + 3600.0 * 23, 3, watched=False, seated=False, limits=limits)
    assert not drop  # used once: the hours count, not the minutes
    seen, drop = review(seen, 10.0 + 3600.0 * 24, 3, watched=False, seated=False, limits=limits)
    assert drop
    _, drop = review(seen, 1e9, 3, watched=True, seated=False, limits=limits)
    assert not drop  # somebody connected


def test_a_limit_of_zero_never_drops() -> None:
    limits = Limits(unused_table_minutes=0, idle_table_hours=0)
    seen, _ = review(None, 0.0, 0, watched=False, seated=False, limits=limits)
    assert not review(seen, 1e12, 0, watched=False, seated=False, limits=limits)[1]
    assert sweep_every(limits) == 60.0
    assert sweep_every(Limits(unused_table_minutes=0.05)) == 0.75


def test_the_secret_file_is_private_atomic_and_moved_from_an_old_database(tmp_path: Path) -> None:
    data = datadir.prepare(tmp_path / "d")
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    old = "ab" * 32
    forgotten: list[bool] = []
    secret = datadir.load_or_create_secret(data, lambda: old, lambda: forgotten.append(True))
    assert secret == bytes.fromhex(old) and forgotten == [True]
    path = data / datadir.SECRET_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert datadir.load_or_create_secret(data) == secret  # the file wins from now on
    assert [p.name for p in data.iterdir()] == [datadir.SECRET_FILE]  # no temporary left


def test_two_processes_creating_the_secret_at_once_agree(tmp_path: Path) -> None:
    data = datadir.prepare(tmp_path / "d")
    results: list[bytes] = []
    threads = [
        threading.Thread(target=lambda: results.append(datadir.load_or_create_secret(data)))
        for _ in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(results)) == 1 and len(results[0]) == 32


def test_a_loose_data_directory_is_tightened_and_a_bad_one_said_in_one_line(
    tmp_path: Path,
) -> None:
    loose = tmp_path / "loose"
    loose.mkdir(mode=0o755)
    os.chmod(loose, 0o755)
    datadir.prepare(loose)
    assert stat.S_IMODE(loose.stat().st_mode) == 0o700
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(datadir.DataDirError, match="cannot use the data directory"):
        datadir.prepare(blocker / "sub")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / datadir.SECRET_FILE).write_text("not hex")
    with pytest.raises(datadir.DataDirError, match="not a hex secret"):
        datadir.load_or_create_secret(tmp_path / "bad")
