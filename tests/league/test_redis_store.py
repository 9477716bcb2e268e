"""The leagues in a real Redis (``--redis``), what the SQLite file cannot show: two processes
racing to store one result store it once (a satellite's tickets are issued once: ligue 8.2
« Conserver les données des résultats »), a Redis restart with its AOF keeps everything, an
outage raises the store's error and writes nothing, every key is under ``<prefix>:league``.
What both stores share is tested over both in tests/league/test_store.py."""

from __future__ import annotations

import threading
from fractions import Fraction
from typing import Any

import redis

from server.league import SeatsPerEntries, issue_tickets
from server.league.model import EventStatus, EventStep, Role, advance
from server.league.redis_store import RedisLeagueStore
from server.league.store import LeagueStoreError
from tests.redis_server import RedisServer

from .helpers import day, finish
from .test_store import LEAGUE, SEASON, event_n, filled, satellite_and_target


def test_two_processes_racing_store_one_result_and_its_tickets_once(
    redis_url: str, redis_prefix: str
) -> None:
    clients = [redis.Redis.from_url(redis_url) for _ in range(2)]
    one, two = (RedisLeagueStore(c, redis_prefix) for c in clients)
    filled(lambda: one)
    sat = satellite_and_target(one)
    # each process read its own copy of the tournament's end: two different results
    orders = (["ana", "bob", "cat", "dan"], ["dan", "cat", "bob", "ana"])
    members = frozenset({"ana", "bob", "cat", "dan"})
    plan = SeatsPerEntries(entries_per_seat=2).plan(4)  # 2 seats
    results = [finish("e3", order, when=day(0)) for order in orders]
    answers: list[bool] = [False, False]
    start = threading.Barrier(2)

    def store(i: int, which: RedisLeagueStore) -> None:
        tickets = issue_tickets(results[i], plan, target="e2", members=members, names={})
        start.wait()
        answers[i] = which.finish(advance(sat, EventStep.FINISH), results[i], {}, tickets)

    threads = [threading.Thread(target=store, args=(i, s)) for i, s in enumerate((one, two))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [False, True]
    won = answers.index(True)
    assert one.result("e3") == results[won] == two.result("e3")
    # the winner's two seats, nobody else's: 2 tickets, not 4
    assert [t.player_id for t in two.tickets_into("e2")] == orders[won][:2]
    assert sum(t.seats for t in one.tickets_into("e2")) == Fraction(2)
    assert [e.id for e in two.events_in([EventStatus.FINISHED])] == ["e3"]
    for c in clients:
        c.close()


def test_two_processes_changing_a_state_at_once_both_count(
    redis_url: str, redis_prefix: str
) -> None:
    """Two processes register a member each in a cup at the same moment: each read the state
    before the other wrote; Redis refuses the second write (WATCH), whose change is asked
    again on the first's state. Nobody is lost (a plain read-then-write loses one)."""
    clients = [redis.Redis.from_url(redis_url) for _ in range(2)]
    stores = [RedisLeagueStore(c, redis_prefix) for c in clients]
    filled(lambda: stores[0])
    stores[0].save_event_state("e1", {"registered": {}})
    both_read = threading.Barrier(2)
    calls = [0, 0]

    def register(i: int, member: str) -> None:
        def change(state: dict[str, Any] | None) -> dict[str, Any] | None:
            assert state is not None
            calls[i] += 1
            if calls[i] == 1:
                both_read.wait(5)  # both have read the same state before either writes
            state["registered"][member] = member.title()
            return state

        stores[i].change_event_state("e1", change)

    threads = [
        threading.Thread(target=register, args=(i, who)) for i, who in enumerate(("ana", "bob"))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert stores[1].event_state("e1") == {"registered": {"ana": "Ana", "bob": "Bob"}}
    assert sorted(calls) == [1, 2]  # the one refused computed again, once
    for c in clients:
        c.close()


def test_a_redis_restart_keeps_everything_and_an_outage_writes_nothing() -> None:
    with RedisServer(appendfsync="always") as server:
        client = redis.Redis.from_url(server.url, socket_timeout=1)
        store = RedisLeagueStore(client, "dep")
        filled(lambda: store)
        running = advance(advance(event_n(1), EventStep.OPEN), EventStep.START)
        store.update_event(running)
        store.add_elimination("e1", "bob", 1, ("ana",))
        server.restart()  # killed (-9), back with its AOF
        again = RedisLeagueStore(redis.Redis.from_url(server.url, socket_timeout=1), "dep")
        assert again.league("l1") is not None and again.league("l1") == store.league("l1")
        assert again.season("s1") == SEASON and again.events("s1") == [running, event_n(2)]
        assert again.eliminations("e1") == {("bob", 1): ("ana",)}
        result = finish("e1", ["ana", "bob"], when=day(0), killers={"bob": "ana"})
        server.kill()
        writes = (
            lambda: store.finish(advance(running, EventStep.FINISH), result, {"ana": "Ana"}),
            lambda: store.add_league(LEAGUE),
            lambda: store.set_role("l1", "dan", Role.MEMBER),
            lambda: store.update_event(advance(running, EventStep.CANCEL, "x")),
            lambda: store.league("l1"),
            lambda: store.events_in([EventStatus.RUNNING]),
        )
        for call in writes:
            try:
                call()
            except LeagueStoreError:
                continue
            raise AssertionError("a Redis outage must raise LeagueStoreError")
        server.start()
        assert store.result("e1") is None and store.event("e1") == running
        assert store.league("l1") == again.league("l1")
        assert "dan" not in again.league("l1").members  # type: ignore[union-attr]
        # Redis back: the same write goes through, once
        assert store.finish(advance(running, EventStep.FINISH), result, {"ana": "Ana"})
        assert again.results("s1") == [result] and again.names("s1") == {"ana": "Ana"}
        assert again.eliminations("e1") == {}
        keys = {k.decode() for k in client.scan_iter("*")}
        assert keys and all(k.startswith("dep:league:") for k in keys)
        client.close()


def test_an_event_another_process_finished_is_not_written_back_to_running(
    redis_url: str, redis_prefix: str
) -> None:
    """Process one read the event ``registering`` and writes it ``running`` (its tournament's
    first seating) after process two stored its result: the event stays ``finished``."""
    client = redis.Redis.from_url(redis_url)
    one, two = RedisLeagueStore(client, redis_prefix), RedisLeagueStore(client, redis_prefix)
    filled(lambda: one)
    registering = advance(event_n(1), EventStep.OPEN)
    one.update_event(registering)
    running = advance(registering, EventStep.START)
    result = finish("e1", ["ana", "bob"], when=day(0))
    assert two.finish(advance(running, EventStep.FINISH), result, {})
    one.update_event(running)  # late
    assert two.event("e1") == advance(running, EventStep.FINISH)
    assert [e.id for e in one.events_in([EventStatus.RUNNING])] == []
    client.close()
