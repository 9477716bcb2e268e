"""The base of every message on the wire, and the limits of its fields.

A field's limit lives in its metadata (``max``: the largest number, the longest string, the
most items of a list), set with :func:`_f`; :mod:`protocol.codec` enforces it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

__all__ = ["BIG", "CHIPS", "NAME", "TEXT", "Message"]

BIG = 2**53
NAME = 64
TEXT = 500
CHIPS = 200


def _f(max_: int, default: Any = ...) -> Any:
    if default is ...:
        return field(metadata={"max": max_})
    return field(default=default, metadata={"max": max_})


@dataclass(frozen=True, slots=True, kw_only=True)
class Message:
    TYPE: ClassVar[str] = ""
