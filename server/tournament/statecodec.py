"""A msgpack codec for an object graph made of registered classes (no pickle, pure).

What goes through:

- ``None``, ``bool``, ``int``, ``float``, ``str``, ``bytes`` as themselves;
- ``dict`` with ``str`` keys as a msgpack map; every other container as an array whose first
  item is a tag: ``list``, ``tuple``, ``set``, ``frozenset``, ``dict`` with other keys (keys
  encoded like values: ints, enums, tuples round-trip exactly), ``types.MappingProxyType``;
- members of registered enums, by class name and value;
- instances of registered classes (dataclasses by their fields, plain classes by the attribute
  names given at registration), by class name and their field values in the registered order;
- named references: objects the caller does not store (a configuration every process parses
  itself), written by name and plugged back from the caller's own on load.

Mutable objects keep their identity: a list, dict, set or instance of a registered class
reached twice (one entry in a dict and in a list) is written once and referenced after, cycles
included. Immutable values (tuples, frozensets, frozen dataclasses) are written by value each
time, and sets sorted when their items sort, so equal states encode to equal bytes whatever
immutable values they happen to share (a frozen dataclass must not be part of a cycle).

Loading never runs code chosen by the data: a class is only ever one of the registry (looked
up by name in it, never imported), built with ``object.__new__`` and its fields set one by one
(no ``__init__``, no ``__post_init__``, no ``__setstate__``). Anything else is refused with a
:class:`StateError`.

The envelope (:meth:`Codec.pack`) is a msgpack map ``{"format", "version", "schema",
"state"}``: ``format`` names what it holds, ``version`` is the codec's version (raised by hand
when the encoding changes), ``schema`` a fingerprint of every registered class's name and
field names and every registered enum's values, so a state written by a server whose classes
had another shape is refused (:class:`StateVersionError`) rather than loaded wrong.
"""

from __future__ import annotations

import dataclasses
import hashlib
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from operator import attrgetter
from typing import Any, Final

import msgpack

__all__ = ["Codec", "StateEncodeError", "StateError", "StateVersionError"]

ADVICE: Final = (
    "finish the tournament with the server version that started it, or cancel the tournament"
)
"""What to do about a state this server cannot read (ends every :class:`StateVersionError`)."""


class StateError(ValueError):
    """A stored state that cannot be loaded (malformed, or naming what the registry lacks)."""


class StateVersionError(StateError):
    """A stored state written by another version of the server (another format, codec
    version or schema), or by a server that pickled it."""


class StateEncodeError(TypeError):
    """The value holds an object the registry does not allow (a bug: register the class or
    keep the object out of the state). The message gives the path to it."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what
        self.path: list[str] = []
        """Steps from the object to the value, innermost first (filled on the way up)."""

    def __str__(self) -> str:
        return f"{self.what} (at value{''.join(reversed(self.path))})"


# tags: the first item of every msgpack array
_LIST, _TUPLE, _SET, _FROZENSET, _DICT, _PROXY, _ENUM, _OBJ, _REF, _MEMO = range(10)

_ATOMS: Final = frozenset({type(None), bool, int, float, str, bytes})
_MEMOIZED: Final = frozenset({list, dict, set})


@dataclasses.dataclass(frozen=True, slots=True)
class _Kind:
    """A registered class: its name in the data and its fields, in order."""

    cls: type
    name: str
    fields: tuple[str, ...]
    values: Callable[[Any], Any]
    check_vars: bool
    """The instances have a ``__dict__``: check it holds exactly the fields."""
    shared: bool
    """Mutable: written once, referenced after (a frozen dataclass is written by value)."""


def _kind(cls: type, fields: Sequence[str] | None) -> _Kind:
    if fields is None:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__qualname__}: give the attribute names of a plain class")
        fields = [f.name for f in dataclasses.fields(cls)]
    names = tuple(fields)
    values: Callable[[Any], Any] = lambda obj: ()  # noqa: E731
    if len(names) == 1:
        one = attrgetter(names[0])
        values = lambda obj: (one(obj),)  # noqa: E731
    elif names:
        values = attrgetter(*names)
    params = getattr(cls, "__dataclass_params__", None)
    frozen = bool(params is not None and params.frozen)
    return _Kind(cls, cls.__qualname__, names, values, _has_dict(cls), not frozen)


def _has_dict(cls: type) -> bool:
    """Instances of ``cls`` carry a ``__dict__`` (not fully slotted)."""
    return any("__dict__" in vars(c) for c in cls.__mro__ if c is not object)


class Codec:
    """Encode and decode graphs of the registered ``classes`` (dataclasses), ``plain``
    classes (class -> attribute names) and ``enums``, in envelopes of ``format`` at
    ``version``. Raises ``ValueError`` if two registered names clash."""

    def __init__(
        self,
        *,
        format: str,
        version: int,
        classes: Iterable[type] = (),
        plain: Mapping[type, Sequence[str]] | None = None,
        enums: Iterable[type[Enum]] = (),
    ) -> None:
        self.format = format
        self.version = version
        kinds = [_kind(c, None) for c in classes]
        kinds += [_kind(c, f) for c, f in (plain or {}).items()]
        self.kinds: Mapping[type, _Kind] = types.MappingProxyType({k.cls: k for k in kinds})
        """The registered classes (read only)."""
        self.by_name: Mapping[str, _Kind] = types.MappingProxyType({k.name: k for k in kinds})
        self.enums: Mapping[str, type[Enum]] = types.MappingProxyType(
            {e.__qualname__: e for e in enums}
        )
        """The registered enums by name (read only)."""
        names = [k.name for k in kinds] + list(self.enums)
        if len(set(names)) != len(names):
            raise ValueError(f"registered names clash: {sorted(names)}")
        if any(type(m.value) not in _ATOMS for e in self.enums.values() for m in e):
            raise ValueError("a registered enum has values that are not plain")
        self.schema = self._fingerprint()

    def _fingerprint(self) -> str:
        """A short hash of every registered class's name and fields, every enum's values."""
        lines = [f"{k.name}:{','.join(k.fields)}" for k in self.by_name.values()]
        lines += [f"{name}={','.join(repr(m.value) for m in e)}" for name, e in self.enums.items()]
        text = "\n".join(sorted(lines))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    # ------------------------------------------------------------------ envelope

    def pack(self, value: Any, refs: Mapping[str, object] | None = None) -> bytes:
        """``value`` in its envelope, as msgpack bytes. Raises :class:`StateEncodeError`."""
        state = self.encode(value, refs or {})
        head = {"format": self.format, "version": self.version, "schema": self.schema}
        return bytes(msgpack.packb({**head, "state": state}, use_bin_type=True))

    def unpack(self, data: bytes, refs: Mapping[str, object] | None = None) -> Any:
        """The value :meth:`pack` wrote. Raises :class:`StateVersionError` for a state of
        another format, version or schema (or a pickle), :class:`StateError` if malformed."""
        envelope = self._envelope(data)
        return self.decode(envelope["state"], refs or {})

    def _envelope(self, data: bytes) -> dict[str, Any]:
        try:
            envelope = msgpack.unpackb(data, raw=False)
        except Exception as exc:
            if data[:1] == b"\x80" and len(data) > 1:
                raise StateVersionError(
                    f"a pickled state, from a server older than {self.format} version 1 "
                    f"(this server reads version {self.version}): {ADVICE}"
                ) from None
            raise StateError(f"not a {self.format}: {exc}") from None
        if not isinstance(envelope, dict) or envelope.get("format") != self.format:
            found = envelope.get("format") if isinstance(envelope, dict) else type(envelope)
            raise StateVersionError(f"not a {self.format} (format {found!r}): {ADVICE}")
        version = envelope.get("version")
        if version != self.version:
            raise StateVersionError(
                f"{self.format} version {version!r}, this server reads version "
                f"{self.version}: {ADVICE}"
            )
        schema = envelope.get("schema")
        if schema != self.schema:
            raise StateVersionError(
                f"{self.format} schema {schema!r}, this server's is {self.schema!r} (the "
                f"state's classes changed between server versions): {ADVICE}"
            )
        if "state" not in envelope:
            raise StateError(f"a {self.format} without its state")
        return envelope

    # ------------------------------------------------------------------ the graph

    def encode(self, value: Any, refs: Mapping[str, object]) -> Any:
        """``value`` as a tree of msgpack values (``refs``: name -> object not stored)."""
        return _Encoder(self, refs).enc(value)

    def decode(self, tree: Any, refs: Mapping[str, object]) -> Any:
        """The value :meth:`encode` gave ``tree`` for (``refs``: name -> object to plug in).
        Raises :class:`StateError`."""
        try:
            return _Decoder(self, refs).dec(tree)
        except StateError:
            raise
        except (LookupError, TypeError, ValueError, AttributeError, RecursionError) as exc:
            raise StateError(f"malformed {self.format}: {type(exc).__name__}: {exc}") from None


def _name(t: type) -> str:
    return f"{t.__module__}.{t.__qualname__}"


class _Encoder:
    def __init__(self, codec: Codec, refs: Mapping[str, object]) -> None:
        self.kinds = codec.kinds
        self.enums = {e: name for name, e in codec.enums.items()}
        # never an empty tuple: the one empty tuple of the interpreter is everywhere
        self.refs = {id(obj): name for name, obj in refs.items() if obj not in (None, ())}
        self.memo: dict[int, int] = {}
        self.handlers: dict[type, Callable[[Any], Any]] = {
            list: lambda obj: [_LIST, *self._items(obj)],
            tuple: lambda obj: [_TUPLE, *self._items(obj)],
            set: lambda obj: [_SET, *self._items(_sorted(obj))],
            frozenset: lambda obj: [_FROZENSET, *self._items(_sorted(obj))],
            dict: self._dict,
            types.MappingProxyType: lambda obj: [_PROXY, *self._pairs(obj)],
        }

    def enc(self, obj: Any) -> Any:
        t = type(obj)
        if t in _ATOMS:
            return obj
        oid = id(obj)
        ref = self.refs.get(oid)
        if ref is not None:
            return [_REF, ref]
        seen = self.memo.get(oid)
        if seen is not None:
            return [_MEMO, seen]
        handler = self.handlers.get(t)
        if handler is not None:
            if t in _MEMOIZED:
                self.memo[oid] = len(self.memo)
            return handler(obj)
        kind = self.kinds.get(t)
        if kind is not None:
            if kind.shared:
                self.memo[oid] = len(self.memo)
            return self._object(kind, obj)
        if t in self.enums:
            return [_ENUM, self.enums[t], obj.value]
        raise StateEncodeError(f"{_name(t)} is not registered")

    def _items(self, items: Iterable[Any]) -> list[Any]:
        out = []
        for i, x in enumerate(items):
            try:
                out.append(x if type(x) in _ATOMS else self.enc(x))
            except StateEncodeError as exc:
                exc.path.append(f"[{i}]")
                raise
        return out

    def _dict(self, obj: dict[Any, Any]) -> Any:
        if all(type(k) is str for k in obj):
            out = {}
            for k, v in obj.items():
                try:
                    out[k] = v if type(v) in _ATOMS else self.enc(v)
                except StateEncodeError as exc:
                    exc.path.append(f"[{k!r}]")
                    raise
            return out
        return [_DICT, *self._pairs(obj)]

    def _pairs(self, obj: Mapping[Any, Any]) -> list[Any]:
        out = []
        for k, v in obj.items():
            try:
                out.append(k if type(k) in _ATOMS else self.enc(k))
                out.append(v if type(v) in _ATOMS else self.enc(v))
            except StateEncodeError as exc:
                exc.path.append(f"[{k!r}]")
                raise
        return out

    def _object(self, kind: _Kind, obj: Any) -> list[Any]:
        if kind.check_vars and vars(obj).keys() != set(kind.fields):
            extra = sorted(set(vars(obj)) - set(kind.fields))
            missing = sorted(set(kind.fields) - set(vars(obj)))
            problems = [f"unregistered attributes {extra}"] if extra else []
            problems += [f"no registered {missing}"] if missing else []
            raise StateEncodeError(
                f"{_name(kind.cls)} has {' and '.join(problems)}: update the registry"
            )
        out: list[Any] = [_OBJ, kind.name]
        for name, v in zip(kind.fields, kind.values(obj), strict=True):
            try:
                out.append(v if type(v) in _ATOMS else self.enc(v))
            except StateEncodeError as exc:
                exc.path.append(f".{name}")
                raise
        return out


def _sorted(items: set[Any] | frozenset[Any]) -> list[Any]:
    try:
        return sorted(items)
    except TypeError:
        return list(items)


class _Decoder:
    def __init__(self, codec: Codec, refs: Mapping[str, object]) -> None:
        self.codec = codec
        self.refs = refs
        self.memo: list[Any] = []
        self.tags: dict[int, Callable[[list[Any]], Any]] = {
            _LIST: self._list,
            _TUPLE: lambda node: tuple(self._each(node)),
            _SET: self._set,
            _FROZENSET: lambda node: frozenset(self._each(node)),
            _DICT: self._dict,
            _PROXY: lambda node: types.MappingProxyType(dict(self._pairs(node))),
            _ENUM: self._enum,
            _OBJ: self._object,
            _REF: self._ref,
            _MEMO: lambda node: self.memo[_int(node[1])],
        }

    def dec(self, node: Any) -> Any:
        t = type(node)
        if t is list:
            tag = self.tags.get(node[0]) if node and type(node[0]) is int else None
            if tag is None:
                raise StateError(f"malformed {self.codec.format}: unknown tag in {node[:2]!r}")
            return tag(node)
        if t is dict:
            out: dict[str, Any] = {}
            self.memo.append(out)
            for k, v in node.items():
                out[k] = self.dec(v)
            return out
        if t in _ATOMS:
            return node
        raise StateError(f"malformed {self.codec.format}: a {t.__name__} in the state")

    def _each(self, node: list[Any]) -> Iterable[Any]:
        return (x if type(x) in _ATOMS else self.dec(x) for x in node[1:])

    def _pairs(self, node: list[Any]) -> Iterable[tuple[Any, Any]]:
        it = iter(self._each(node))
        return zip(it, it, strict=True)

    def _list(self, node: list[Any]) -> list[Any]:
        out: list[Any] = []
        self.memo.append(out)
        out.extend(self._each(node))
        return out

    def _set(self, node: list[Any]) -> set[Any]:
        out: set[Any] = set()
        self.memo.append(out)
        out.update(self._each(node))
        return out

    def _dict(self, node: list[Any]) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        self.memo.append(out)
        for k, v in self._pairs(node):
            out[k] = v
        return out

    def _enum(self, node: list[Any]) -> Enum:
        _, name, value = node
        cls = self.codec.enums.get(name)
        if cls is None:
            raise StateError(f"{self.codec.format} names enum {name!r}, not registered here")
        try:
            return cls(value)
        except ValueError:
            raise StateError(f"{self.codec.format}: {name} has no member {value!r} here") from None

    def _object(self, node: list[Any]) -> Any:
        name = node[1]
        kind = self.codec.by_name.get(name) if type(name) is str else None
        if kind is None:
            raise StateError(f"{self.codec.format} names class {name!r}, not registered here")
        if len(node) - 2 != len(kind.fields):
            raise StateError(
                f"{self.codec.format}: {name} with {len(node) - 2} fields, this server's "
                f"has {len(kind.fields)} ({', '.join(kind.fields)})"
            )
        obj: Any = object.__new__(kind.cls)
        if kind.shared:
            self.memo.append(obj)
        for field, value in zip(kind.fields, node[2:], strict=True):
            object.__setattr__(obj, field, value if type(value) in _ATOMS else self.dec(value))
        return obj

    def _ref(self, node: list[Any]) -> object:
        name = node[1]
        if type(name) is not str or name not in self.refs:
            raise StateError(f"{self.codec.format}: unknown reference {name!r}")
        return self.refs[name]


def _int(value: Any) -> int:
    if type(value) is not int:
        raise StateError(f"malformed reference {value!r}")
    return value
