"""msgpack codec with validation: size first, then structure, then every field's type and range.

``decode`` never trusts the peer: a frame over :data:`MAX_FRAME` is refused before decoding,
msgpack limits cap strings/arrays/maps, and the message is checked against its class (no
unknown field, no missing field, right types, values within the field's ``max``).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgpack

from .errors import ErrorCode, ProtocolError
from .messages import CLIENT_MESSAGES, SERVER_MESSAGES, Message

__all__ = ["MAX_FRAME", "decode", "decode_client", "decode_server", "encode", "to_wire"]

MAX_FRAME = 16 * 1024
"""Largest frame a client may send (bytes). Server frames (snapshots) may be larger."""
MAX_SERVER_FRAME = 1024 * 1024


@dataclass(frozen=True, slots=True)
class _Field:
    name: str
    kind: str  # int | str | bool | ints | strs | maps | dict
    optional: bool
    required: bool
    max: int


_SCHEMAS: dict[type[Message], tuple[_Field, ...]] = {}


def _kind(tp: Any) -> tuple[str, bool]:
    optional = False
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        optional = len(args) != len(typing.get_args(tp))
        tp = args[0]
        origin = typing.get_origin(tp)
    if tp is bool:
        return "bool", optional
    if tp is int:
        return "int", optional
    if tp is str:
        return "str", optional
    if origin is tuple:
        inner = typing.get_args(tp)[0]
        if typing.get_origin(inner) is dict:
            return "maps", optional
        return ("ints" if inner is int else "strs"), optional
    if origin is dict:
        return "dict", optional
    raise TypeError(f"unsupported field type {tp!r}")


def _schema(cls: type[Message]) -> tuple[_Field, ...]:
    schema = _SCHEMAS.get(cls)
    if schema is None:
        hints = typing.get_type_hints(cls)
        fields = []
        for f in dataclasses.fields(cls):
            kind, optional = _kind(hints[f.name])
            required = f.default is dataclasses.MISSING
            fields.append(_Field(f.name, kind, optional, required, int(f.metadata.get("max", 0))))
        schema = _SCHEMAS[cls] = tuple(fields)
    return schema


def to_wire(message: Message) -> dict[str, Any]:
    """The msgpack-ready map of a message (tuples become lists, None fields are dropped)."""
    out: dict[str, Any] = {"t": message.TYPE}
    for f in _schema(type(message)):
        value = getattr(message, f.name)
        if value is None:
            continue
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def encode(message: Message) -> bytes:
    return msgpack.packb(to_wire(message), use_bin_type=True)  # type: ignore[no-any-return]


def _bad(code: ErrorCode, message: str) -> ProtocolError:
    return ProtocolError(code, message)


def _check(f: _Field, value: Any) -> Any:
    if value is None:
        if f.optional:
            return None
        raise _bad(ErrorCode.BAD_TYPE, f"{f.name}: null is not allowed")
    return _CHECKS[f.kind](f, value)


def _check_int(f: _Field, value: Any) -> Any:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _bad(ErrorCode.BAD_TYPE, f"{f.name}: an integer is expected")
    if not 0 <= value <= f.max:
        raise _bad(ErrorCode.OUT_OF_RANGE, f"{f.name}: must be between 0 and {f.max}")
    return value


def _check_str(f: _Field, value: Any) -> Any:
    if not isinstance(value, str):
        raise _bad(ErrorCode.BAD_TYPE, f"{f.name}: a string is expected")
    if len(value) > f.max:
        raise _bad(ErrorCode.OUT_OF_RANGE, f"{f.name}: at most {f.max} characters")
    return value


def _check_bool(f: _Field, value: Any) -> Any:
    if not isinstance(value, bool):
        raise _bad(ErrorCode.BAD_TYPE, f"{f.name}: a boolean is expected")
    return value


_ITEM_TYPES: dict[str, type[Any]] = {"ints": int, "strs": str, "maps": dict}


def _check_list(f: _Field, value: Any) -> Any:
    if not isinstance(value, (list, tuple)):
        raise _bad(ErrorCode.BAD_TYPE, f"{f.name}: a list is expected")
    if len(value) > f.max:
        raise _bad(ErrorCode.OUT_OF_RANGE, f"{f.name}: at most {f.max} items")
    kind = f.kind
    want: type[Any] = _ITEM_TYPES[kind]
    for item in value:
        if not isinstance(item, want) or isinstance(item, bool):
            raise _bad(ErrorCode.BAD_TYPE, f"{f.name}: items must be {want.__name__}")
        if kind == "ints" and not 0 <= int(item) < 2**53:
            raise _bad(ErrorCode.OUT_OF_RANGE, f"{f.name}: item out of range")
    return tuple(value)


def _check_dict(f: _Field, value: Any) -> Any:
    if not isinstance(value, dict):
        raise _bad(ErrorCode.BAD_TYPE, f"{f.name}: a map is expected")
    return value


_CHECKS: dict[str, Callable[[_Field, Any], Any]] = {
    "int": _check_int,
    "str": _check_str,
    "bool": _check_bool,
    "ints": _check_list,
    "strs": _check_list,
    "maps": _check_list,
    "dict": _check_dict,
}
"""The check of a value by field kind (see _kind)."""


def from_wire(data: Any, registry: Mapping[str, type[Message]]) -> Message:
    """Validate a decoded map against its message class. Raises ProtocolError, carrying the
    map's ``id`` as ``ref`` when it has a valid one (docs/protocol.md: "echoed as ``ref`` in
    the ``error`` a command is refused with")."""
    try:
        return _validated(data, registry)
    except ProtocolError as exc:
        exc.ref = _id_of(data)
        raise


def _id_of(data: Any) -> int | None:
    """A map's ``id`` if it is one a client may send (an integer in 0 .. 2**53)."""
    value = data.get("id") if isinstance(data, dict) else None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**53:
        return value
    return None


def _validated(data: Any, registry: Mapping[str, type[Message]]) -> Message:
    if not isinstance(data, dict):
        raise _bad(ErrorCode.BAD_FRAME, "a frame must be a msgpack map")
    if "t" not in data:
        raise _bad(ErrorCode.BAD_FRAME, "a frame must be a map with the key 't' (its type)")
    kind = data["t"]
    cls = registry.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise _bad(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind!r}"[:200])
    schema = _schema(cls)
    names = {f.name for f in schema}
    for key in data:
        if key != "t" and key not in names:
            raise _bad(ErrorCode.UNKNOWN_FIELD, f"unknown field {key!r}"[:200])
    values: dict[str, Any] = {}
    for f in schema:
        if f.name in data:
            values[f.name] = _check(f, data[f.name])
        elif f.required:
            raise _bad(ErrorCode.MISSING_FIELD, f"missing field {f.name!r}")
    return cls(**values)


def decode(frame: bytes | str, registry: Mapping[str, type[Message]], limit: int) -> Message:
    """Decode one frame. The size is checked before any decoding. Raises ProtocolError."""
    if isinstance(frame, str):
        raise _bad(ErrorCode.BAD_FRAME, "text frames are not accepted: send binary msgpack")
    if len(frame) > limit:
        raise _bad(ErrorCode.FRAME_TOO_LARGE, f"frame of {len(frame)} bytes over {limit}")
    try:
        data = msgpack.unpackb(
            frame,
            raw=False,
            strict_map_key=True,
            max_str_len=limit,
            max_bin_len=limit,
            max_array_len=4096,
            max_map_len=4096,
            max_ext_len=0,
        )
    except Exception as exc:  # msgpack raises several types for bad input
        raise _bad(ErrorCode.BAD_FRAME, f"not a msgpack frame ({type(exc).__name__})") from None
    return from_wire(data, registry)


def decode_client(frame: bytes | str) -> Message:
    """Decode a frame a client sent (the server side)."""
    return decode(frame, CLIENT_MESSAGES, MAX_FRAME)


def decode_server(frame: bytes | str) -> Message:
    """Decode a frame the server sent (the bots' side)."""
    return decode(frame, SERVER_MESSAGES, MAX_SERVER_FRAME)
