"""Members in a real Redis (``--redis`` deployments): one login is one person across
processes, a new member is written whole or not at all, and a Redis restart with its AOF
keeps them."""

from __future__ import annotations

import redis

from server.accounts import Member, MemberError
from server.accounts.redis_store import RedisMemberStore
from server.accounts.store import MemberStoreError
from tests.redis_server import RedisServer


def member(mid: str, login: str, version: int = 1) -> Member:
    return Member(
        id=mid, login=login, display=login.title(), lang="fr", password_hash="scrypt$x",
        version=version, created=12.5,
    )  # fmt: skip


def test_two_processes_share_one_login_and_see_each_others_changes(
    redis_url: str, redis_prefix: str
) -> None:
    one = RedisMemberStore(redis.Redis.from_url(redis_url), redis_prefix)
    two = RedisMemberStore(redis.Redis.from_url(redis_url), redis_prefix)
    one.add(member("m1", "ana"))
    try:
        two.add(member("m2", "ana"))
    except MemberError as exc:
        assert exc.code == "account.taken"
    else:
        raise AssertionError("a login taken in another process was given again")
    assert two.by_id("m2") is None  # nothing of the refused member was written
    assert two.by_login("ana") == member("m1", "ana")
    one.update(member("m1", "ana", version=2))
    assert two.by_id("m1") == member("m1", "ana", version=2)
    assert two.count() == 1 and two.by_login("bob") is None


def test_a_redis_restart_keeps_the_members_and_an_outage_refuses_cleanly() -> None:
    with RedisServer(appendfsync="always") as server:
        store = RedisMemberStore(redis.Redis.from_url(server.url, socket_timeout=1), "p")
        store.add(member("m1", "ana"))
        server.restart()
        assert store.by_login("ana") == member("m1", "ana")
        server.kill()
        for call in (lambda: store.add(member("m2", "bob")), lambda: store.by_login("ana")):
            try:
                call()
            except MemberStoreError:
                continue
            raise AssertionError("a Redis outage must raise MemberStoreError")
