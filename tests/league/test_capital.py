"""The season capital as an account with reservations (issue 26), over both stores: the
SQLite file of one process and a real Redis shared by several.

fpc cash: « Le joueur ne peut en aucun cas engager une valeur de jetons supérieure à son
capital » and « L'adhérent ayant perdu la totalité de son capital ne pourra plus participer
aux sessions de Cash Game »."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from hypothesis import given, settings
from hypothesis import strategies as st

from server.league.capital_account import Hold, Stint, available, refusal, settle, standing
from server.league.capital_store import CapitalBook, CapitalRefused, CapitalStore
from server.league.redis_capital import RedisCapital

Make = Callable[[], CapitalBook]


@pytest.fixture(params=["sqlite", "redis"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Make]:
    """A factory of handles on ONE store: two handles are two processes (two SQLite
    connections to one file, or two Redis clients)."""
    if request.param == "sqlite":
        handles: list[CapitalStore] = []

        def sqlite() -> CapitalBook:
            handles.append(CapitalStore(tmp_path / "capital.sqlite"))
            return handles[-1]

        yield sqlite
        for h in handles:
            h.close()
        return
    url = request.getfixturevalue("redis_url")
    prefix = request.getfixturevalue("redis_prefix")
    clients: list[redis.Redis] = []

    def shared() -> CapitalBook:
        clients.append(redis.Redis.from_url(url))
        return RedisCapital(clients[-1], prefix)

    yield shared
    for c in clients:
        c.close()


def test_a_reservation_sets_the_amount_aside_and_a_refusal_writes_nothing(make: Make) -> None:
    book = make()
    assert book.reserve("s", "ana", 6000, Hold("h1", "t1", 5000)) == 6000
    with pytest.raises(CapitalRefused) as refused:
        book.reserve("s", "ana", 6000, Hold("h2", "t2", 5000))
    assert refused.value.free == 1000 and refused.value.message == "your capital allows 1000"
    [account] = book.accounts("s")
    assert [h.id for h in account.holds] == ["h1"]
    # another member, another season: their own capital
    assert book.reserve("s", "bob", 6000, Hold("h3", "t1", 5000)) == 6000
    assert book.reserve("other", "ana", 6000, Hold("h4", "t1", 6000)) == 6000


def test_spent_released_and_cashed_out(make: Make) -> None:
    book = make()
    book.reserve("s", "ana", 6000, Hold("h1", "t1", 5000))
    # the table wrote the buy-in: the hold is spent, the stint says 5,000 brought
    book.settle("s", "t1", {"ana": Stint(5000, 0, 5000)}, {"ana": ["h1"]})
    with pytest.raises(CapitalRefused):
        book.reserve("s", "ana", 6000, Hold("h2", "t2", 1001))
    book.reserve("s", "ana", 6000, Hold("h2", "t2", 1000))
    # the table refused h2: released, the 1,000 is free again
    book.settle("s", "t2", {}, {"ana": ["h2"]})
    # she leaves t1 with 7,500: 2,500 won, 8,500 free
    book.settle("s", "t1", {"ana": Stint(5000, 7500, 0)}, {})
    assert book.reserve("s", "ana", 6000, Hold("h3", "t2", 8500)) == 8500
    [account] = book.accounts("s")
    assert standing(6000, account.stints.values()) == 8500


def test_a_lost_capital_bars_cash_play(make: Make) -> None:
    book = make()
    book.settle("s", "t1", {"ana": Stint(6000, 0, 0)}, {})
    with pytest.raises(CapitalRefused) as refused:
        book.reserve("s", "ana", 6000, Hold("h1", "t1", 1))
    assert refused.value.message == "your capital is lost: no more cash play this season"


def test_the_holds_of_a_table_whose_process_died_are_dropped(make: Make) -> None:
    book = make()
    book.reserve("s", "ana", 6000, Hold("h1", "t1", 2000))
    book.reserve("s", "ana", 6000, Hold("h2", "t2", 2000))
    book.reserve("s", "bob", 6000, Hold("h3", "t1", 2000))
    dropped = sorted((season, member, h.id) for season, member, h in book.drop_holds("t1"))
    assert dropped == [("s", "ana", "h1"), ("s", "bob", "h3")]
    assert book.drop_holds("t1") == []
    holds = {a.member: [h.id for h in a.holds] for a in book.accounts("s") if a.holds}
    assert holds == {"ana": ["h2"]}


def test_two_processes_racing_for_one_capital_spend_it_once(make: Make) -> None:
    """The issue's race: capital 6,000, two buy-ins of 5,000 at two tables at one instant;
    repeated so that the two really overlap."""
    books = [make(), make()]
    for round_ in range(20):
        season = f"s{round_}"
        results: list[str] = ["", ""]
        start = threading.Barrier(2)

        def buy(
            i: int,
            season: str = season,
            results: list[str] = results,
            start: threading.Barrier = start,
        ) -> None:
            start.wait()
            try:
                books[i].reserve(season, "ana", 6000, Hold(f"{season}-{i}", f"t{i}", 5000))
                results[i] = "granted"
            except CapitalRefused:
                results[i] = "refused"

        threads = [threading.Thread(target=buy, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == ["granted", "refused"], results
        [account] = books[0].accounts(season)
        assert sum(h.amount for h in account.holds) == 5000


amounts = st.lists(st.integers(min_value=1, max_value=4000), min_size=1, max_size=30)


@settings(max_examples=60, deadline=None)
@given(amounts, st.integers(min_value=0, max_value=10_000))
def test_reservations_never_exceed_the_capital(asked: list[int], start: int) -> None:
    book = CapitalStore(":memory:")
    granted = 0
    for i, amount in enumerate(asked):
        try:
            book.reserve("s", "ana", start, Hold(f"h{i}", f"t{i % 3}", amount))
            granted += amount
        except CapitalRefused as exc:
            assert amount > exc.free == start - granted
    assert granted <= start
    [account] = book.accounts("s") or [None]
    assert account is None or available(start, [], account.holds) == start - granted


def test_settle_spends_what_the_ledger_wrote_and_releases_what_the_table_refused() -> None:
    holds = [Hold("a", "t", 1), Hold("b", "t", 2), Hold("c", "t", 3)]
    done = settle(holds, recorded=lambda h: h == "a", waiting=lambda h: h == "c")
    assert done.spent == ("a",) and done.released == ("b",)
    assert refusal(5, 5) is None and refusal(6, 5) == "your capital allows 5"


def test_a_redis_restart_keeps_the_accounts_and_an_outage_grants_nothing() -> None:
    """A Redis killed (-9) comes back with its AOF: the holds and totals are there. While it
    is down, a reservation raises the store's error (the purchase is refused, ``internal``)
    and writes nothing; once it is back the same reservation sees the true capital."""
    from server.league.capital_store import CapitalStoreError
    from tests.redis_server import RedisServer

    with RedisServer(appendfsync="always") as server:
        book = RedisCapital(redis.Redis.from_url(server.url, socket_timeout=1), "dep")
        book.settle("s", "t1", {"ana": Stint(5000, 0, 5000)}, {})
        book.reserve("s", "ana", 6000, Hold("h1", "t2", 500))
        server.restart()
        again = RedisCapital(redis.Redis.from_url(server.url, socket_timeout=1), "dep")
        [account] = again.accounts("s")
        assert account.stints == {"t1": Stint(5000, 0, 5000)}
        assert [h.id for h in account.holds] == ["h1"]
        server.kill()
        for call in (
            lambda: again.reserve("s", "ana", 6000, Hold("h2", "t2", 500)),
            lambda: again.settle("s", "t1", {"ana": Stint(5000, 9000, 0)}, {"ana": ["h1"]}),
            lambda: again.drop_holds("t2"),
            lambda: again.accounts("s"),
        ):
            with pytest.raises(CapitalStoreError):
                call()
        server.start()
        with pytest.raises(CapitalRefused) as refused:
            again.reserve("s", "ana", 6000, Hold("h2", "t2", 501))
        assert refused.value.free == 500  # 6,000 - 5,000 brought - 500 held: nothing moved
