"""The members in Redis, for a deployment of several server processes (``--redis``): one
person is one account whichever process he reaches. The same interface as
:class:`~server.accounts.store.MemberStore`.

Keys (under the deployment's prefix): ``member:<id>`` a hash of the member's fields,
``member-login:<login>`` the id of the login's member. A new member is written by one Lua
script (the login taken and the member written together, or neither). A Redis error raises
``MemberStoreError`` and changes nothing: no session token is handed out for it. The
synchronous client has the short timeouts of the tables' writes (server.tournament.redis_link):
a Redis that hangs delays one request, not the process.
"""

from __future__ import annotations

from typing import Any

import redis

from server.accounts.members import Member, MemberError
from server.accounts.store import MemberStoreError

__all__ = ["RedisMemberStore"]

_ADD = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX') == false then return 0 end
redis.call('HSET', KEYS[2], unpack(ARGV, 2))
return 1
"""

_FIELDS = ("id", "login", "display", "lang", "password_hash", "version", "created")


class RedisMemberStore:
    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self._r = client
        self._prefix = prefix
        self._add = client.register_script(_ADD)

    def _member_key(self, member_id: str) -> str:
        return f"{self._prefix}:member:{member_id}"

    def _login_key(self, login: str) -> str:
        return f"{self._prefix}:member-login:{login}"

    def close(self) -> None:
        """The client is the deployment's link: it stays open."""

    def add(self, member: Member) -> None:
        fields: list[Any] = []
        for name in _FIELDS:
            fields += [name, str(getattr(member, name))]
        try:
            done = self._add(
                keys=[self._login_key(member.login), self._member_key(member.id)],
                args=[member.id, *fields],
            )
        except redis.RedisError as exc:
            raise MemberStoreError(f"members: {exc}") from None
        if not done:
            raise MemberError("account.taken", "this login is taken")

    def update(self, member: Member) -> None:
        try:
            self._r.hset(
                self._member_key(member.id),
                mapping={
                    "display": member.display,
                    "lang": member.lang,
                    "password_hash": member.password_hash,
                    "version": str(member.version),
                },
            )
        except redis.RedisError as exc:
            raise MemberStoreError(f"members: {exc}") from None

    def by_login(self, login: str) -> Member | None:
        try:
            member_id = self._r.get(self._login_key(login))
        except redis.RedisError as exc:
            raise MemberStoreError(f"members: {exc}") from None
        if member_id is None:
            return None
        text = member_id.decode() if isinstance(member_id, bytes) else str(member_id)
        return self.by_id(text)

    def by_id(self, member_id: str) -> Member | None:
        try:
            raw = self._r.hgetall(self._member_key(member_id))
        except redis.RedisError as exc:
            raise MemberStoreError(f"members: {exc}") from None
        if not raw:
            return None
        data = {
            (k.decode() if isinstance(k, bytes) else str(k)): (
                v.decode() if isinstance(v, bytes) else str(v)
            )
            for k, v in raw.items()
        }
        return Member(
            id=data["id"],
            login=data["login"],
            display=data["display"],
            lang=data["lang"],
            password_hash=data["password_hash"],
            version=int(data["version"]),
            created=float(data["created"]),
        )

    def count(self) -> int:
        try:
            return sum(1 for _ in self._r.scan_iter(match=self._login_key("*"), count=500))
        except redis.RedisError as exc:
            raise MemberStoreError(f"members: {exc}") from None
