"""A member: login, display name, language, password hash (pure records and checks)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from server.accounts.names import reserved_name

__all__ = ["LANGUAGES", "RESERVED_NAME", "Member", "MemberError", "check_display", "check_login"]

LANGUAGES = ("fr", "en")
RESERVED_NAME = "reserved_name"
"""The code of a name refused because it would pass for one of the server's voices (the same
code as protocol.ErrorCode.RESERVED_NAME, for a ``hello`` nickname)."""
_LOGIN = re.compile(r"[a-z0-9][a-z0-9_.-]{2,31}")


class MemberError(ValueError):
    """An account request refused, with a stable ``code`` (``account.*``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True, kw_only=True)
class Member:
    id: str
    """Stable and opaque: a member's results and seats follow it, whatever his name."""
    login: str
    display: str
    lang: str
    password_hash: str
    version: int = 1
    """Raised at each password change: the sessions of older versions stop working."""
    created: float = 0.0


def check_login(login: str) -> str:
    """The login as stored (lower case); ``account.bad_login`` when it is not 3 to 32 of
    ``a-z 0-9 _ . -`` starting with a letter or digit."""
    folded = login.strip().casefold() if isinstance(login, str) else ""
    if not _LOGIN.fullmatch(folded):
        raise MemberError("account.bad_login", "a login is 3-32 of a-z 0-9 _ . -")
    return folded


def check_display(display: str, login: str) -> str:
    """A display name: 1 to 32 printable characters (the login when empty); ``reserved_name``
    when it would pass for the director, the host or the server (server.accounts.names)."""
    text = " ".join(display.split()) if isinstance(display, str) else ""
    if not text:
        text = login
    if len(text) > 32 or not text.isprintable():
        raise MemberError("account.bad_display", "a display name is 1-32 printable characters")
    if text and reserved_name(text):
        raise MemberError(RESERVED_NAME, "this name is the director's, the host's or the server's")
    return text
