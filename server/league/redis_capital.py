"""Season capitals in Redis, for several server processes (``--redis``): the same
:class:`~server.league.capital_store.CapitalBook` as the SQLite file, where two processes
asked for two buy-ins of one member at once cannot both spend his capital.

Keys, under ``<prefix>:capital`` (``C`` below)::

    C:a:<season>:<member>   hash: s:<table> -> "brought,taken,stack"; h:<hold> -> "table,amount"
    C:m:<season>            set of the season's members with an account
    C:t:<table>             set of "<season> <member> <hold>": the holds asked at a table

A reservation is one Lua script that adds the account up and sets the amount aside only
when it is free: Redis runs scripts one at a time, so no other process's reservation comes
in between. A settlement is one script per member (his account is one key). A Redis error
raises :class:`~server.league.capital_store.CapitalStoreError`: nothing is granted on it.

The synchronous client is the deployment's (short timeouts), used from the asyncio thread
only, as the leagues' Redis store is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import redis

from .capital_account import Hold, Stint, refusal
from .capital_store import Account, CapitalRefused, CapitalStoreError

__all__ = ["RedisCapital"]

_T = TypeVar("_T")

_RESERVE = """
local start = tonumber(ARGV[1])
local amount = tonumber(ARGV[4])
local flat = redis.call('HGETALL', KEYS[1])
local free = start
for i = 1, #flat, 2 do
  local k, v = flat[i], flat[i + 1]
  if string.sub(k, 1, 2) == 's:' then
    local b, t = string.match(v, '^(%-?%d+),(%-?%d+),')
    free = free + tonumber(t) - tonumber(b)
  elseif string.sub(k, 1, 2) == 'h:' then
    free = free - tonumber(string.match(v, ',(%-?%d+)$'))
  end
end
if amount > free then
  return {0, free}
end
redis.call('HSET', KEYS[1], 'h:' .. ARGV[2], ARGV[3] .. ',' .. ARGV[4])
redis.call('SADD', KEYS[2], ARGV[5])
redis.call('SADD', KEYS[3], ARGV[6])
return {1, free}
"""

_SETTLE = """
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], 's:' .. ARGV[1], ARGV[2])
  redis.call('SADD', KEYS[2], ARGV[4])
end
for i = 5, #ARGV do
  redis.call('HDEL', KEYS[1], 'h:' .. ARGV[i])
  redis.call('SREM', KEYS[3], ARGV[3] .. ARGV[i])
end
return 1
"""

_DROP = """
local entries = redis.call('SMEMBERS', KEYS[1])
for _, entry in ipairs(entries) do
  local season, member, hold = string.match(entry, '^(%S+) (%S+) (%S+)$')
  redis.call('HDEL', ARGV[1] .. ':a:' .. season .. ':' .. member, 'h:' .. hold)
end
redis.call('DEL', KEYS[1])
return entries
"""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisCapital:
    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self._r = client
        self._p = f"{prefix}:capital"
        self._reserve = client.register_script(_RESERVE)
        self._settle = client.register_script(_SETTLE)
        self._drop = client.register_script(_DROP)

    def close(self) -> None:
        """The client is the deployment's link: it stays open."""

    @staticmethod
    def _call(do: Callable[[], _T]) -> _T:
        try:
            return do()
        except redis.RedisError as exc:
            raise CapitalStoreError(f"capital: {exc}") from None

    def _account_key(self, season: str, member: str) -> str:
        return f"{self._p}:a:{season}:{member}"

    def reserve(self, season: str, member: str, start: int, hold: Hold) -> int:
        keys = [
            self._account_key(season, member),
            f"{self._p}:m:{season}",
            f"{self._p}:t:{hold.table}",
        ]
        args: list[str | int] = [
            start,
            hold.id,
            hold.table,
            hold.amount,
            member,
            f"{season} {member} {hold.id}",
        ]
        granted, free = self._call(lambda: self._reserve(keys=keys, args=args))
        if not granted:
            raise CapitalRefused(refusal(hold.amount, int(free)) or "", int(free))
        return int(free)

    def settle(
        self,
        season: str,
        table: str,
        stints: Mapping[str, Stint],
        ended: Mapping[str, Iterable[str]],
    ) -> None:
        def write() -> None:
            pipe = self._r.pipeline(transaction=False)
            for member in set(stints) | set(ended):
                stint = stints.get(member)
                text = "" if stint is None else f"{stint.brought},{stint.taken},{stint.stack}"
                keys = [
                    self._account_key(season, member),
                    f"{self._p}:m:{season}",
                    f"{self._p}:t:{table}",
                ]
                args = [table, text, f"{season} {member} ", member, *ended.get(member, ())]
                self._settle(keys=keys, args=args, client=pipe)
            pipe.execute()

        self._call(write)

    def drop_holds(self, table: str) -> list[tuple[str, str, Hold]]:
        entries = self._call(lambda: self._drop(keys=[f"{self._p}:t:{table}"], args=[self._p]))
        dropped = []
        for entry in entries:
            season, member, hold = _text(entry).split(" ")
            dropped.append((season, member, Hold(hold, table, 0)))
        return dropped

    def accounts(self, season: str) -> list[Account]:
        def read() -> tuple[list[str], list[Any]]:
            members = sorted(_text(m) for m in self._r.smembers(f"{self._p}:m:{season}"))
            pipe = self._r.pipeline(transaction=True)
            for member in members:
                pipe.hgetall(self._account_key(season, member))
            return members, pipe.execute() if members else []

        members, hashes = self._call(read)
        return [_account(member, raw) for member, raw in zip(members, hashes, strict=True)]


def _account(member: str, raw: Mapping[Any, Any]) -> Account:
    stints: dict[str, Stint] = {}
    holds: list[Hold] = []
    for key, value in raw.items():
        name, text = _text(key), _text(value)
        if name.startswith("s:"):
            brought, taken, stack = (int(x) for x in text.split(","))
            stints[name[2:]] = Stint(brought, taken, stack)
        elif name.startswith("h:"):
            table, amount = text.split(",")
            holds.append(Hold(name[2:], table, int(amount)))
    return Account(member, stints, tuple(holds))
