"""Members in a real SQLite file: a login is one person's, and what is saved comes back."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.accounts import Member, MemberError, MemberStore, check_display, check_login


def member(mid: str, login: str) -> Member:
    return Member(id=mid, login=login, display=login.title(), lang="fr", password_hash="scrypt$x")


def test_a_login_is_taken_once_and_members_survive_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "members.sqlite"
    store = MemberStore(path)
    store.add(member("m1", "ana"))
    with pytest.raises(MemberError) as taken:
        store.add(member("m2", "ana"))
    assert taken.value.code == "account.taken" and store.count() == 1
    changed = Member(
        id="m1", login="ana", display="Ana B.", lang="en", password_hash="scrypt$y", version=2
    )
    store.update(changed)
    store.close()
    again = MemberStore(path)
    assert again.by_login("ana") == changed and again.by_id("m1") == changed
    assert again.by_login("bob") is None


@pytest.mark.parametrize("login", ["ab", "-ana", "ana bob", "x" * 33, "", "é" * 5])
def test_bad_logins_are_refused(login: str) -> None:
    with pytest.raises(MemberError) as refused:
        check_login(login)
    assert refused.value.code == "account.bad_login"


def test_logins_fold_case_and_display_names_are_tidied() -> None:
    assert check_login("  Ana.B_2 ") == "ana.b_2"
    assert check_display("  Ana   B. ", "ana") == "Ana B." and check_display("", "ana") == "ana"
    with pytest.raises(MemberError):
        check_display("x" * 40, "ana")
