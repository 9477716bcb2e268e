"""Member accounts (leagues, issue 15): passwords kept only as memory-hard hashes (Scrypt,
from ``cryptography``), a guard against guessing that counts each guess before it is checked,
the reserved names, the members' records. Friends tables stay account-free; a league event or
an fpc cash table may require an account, so that one person is one entry and results (and
the fpc capital) follow the person."""

from server.accounts.guard import GUESS_KINDS, GuessGuard
from server.accounts.members import (
    RESERVED_NAME,
    Member,
    MemberError,
    check_display,
    check_login,
)
from server.accounts.names import RESERVED, reserved_name, skeleton
from server.accounts.passwords import (
    PasswordError,
    ScryptParams,
    check_password,
    hash_password,
    verify_password,
)
from server.accounts.store import MemberStore

__all__ = [
    "GUESS_KINDS",
    "RESERVED",
    "RESERVED_NAME",
    "GuessGuard",
    "Member",
    "MemberError",
    "MemberStore",
    "PasswordError",
    "ScryptParams",
    "check_display",
    "check_login",
    "check_password",
    "hash_password",
    "reserved_name",
    "skeleton",
    "verify_password",
]
