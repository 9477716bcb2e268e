"""The one membership decision (server/league/membership.py), pure: where an account stands
with a league, and the whole table of answers, every standing by every entry path, members
only or open to guests."""

from __future__ import annotations

import pytest

from server.league.membership import ADMISSIONS, EntryPath, Standing, admit, standing
from server.league.model import League, LeagueRefusal, league_of

LEAGUE = league_of(
    "l1",
    "Les Potes",
    "ana",
    "inv",
    1.0,
    True,
    [("ana", "owner"), ("cat", "director"), ("bob", "member"), ("dan", "pending")],
    ["eve", "dan"],  # eve removed; dan was, and asked again: pending wins
)

EXPECTED_MEMBERS_ONLY: dict[Standing, str | None] = {
    Standing.OWNER: None,
    Standing.DIRECTOR: None,
    Standing.MEMBER: None,
    Standing.PENDING: "league.awaiting_approval",
    Standing.REMOVED: "league.not_member",
    Standing.OUTSIDER: "league.not_member",
    Standing.GUEST: "league.account_required",
}
"""What issue 26 asks, written out once more by hand: the table must say the same."""


@pytest.mark.parametrize(
    ("member", "expected"),
    [
        ("ana", Standing.OWNER),
        ("cat", Standing.DIRECTOR),
        ("bob", Standing.MEMBER),
        ("dan", Standing.PENDING),
        ("eve", Standing.REMOVED),
        ("zoe", Standing.OUTSIDER),
        (None, Standing.GUEST),
    ],
)
def test_where_each_account_stands(member: str | None, expected: Standing) -> None:
    assert standing(LEAGUE, member) is expected


def test_no_league_makes_every_account_an_outsider_and_a_guest_a_guest() -> None:
    assert standing(None, "ana") is Standing.OUTSIDER
    assert standing(None, None) is Standing.GUEST


def test_a_removed_member_is_not_a_member() -> None:
    assert "eve" not in LEAGUE.members and LEAGUE.role_of("eve") is None
    assert LEAGUE.removed == frozenset({"eve"})  # dan asked again: pending, not removed


def _answer(who: Standing, path: EntryPath, members_only: bool) -> str | None:
    try:
        admit(who, path, members_only=members_only)
    except LeagueRefusal as exc:
        return exc.code
    return None


@pytest.mark.parametrize("path", list(EntryPath))
@pytest.mark.parametrize("who", list(Standing))
def test_members_only_entries(who: Standing, path: EntryPath) -> None:
    assert _answer(who, path, True) == EXPECTED_MEMBERS_ONLY[who]


@pytest.mark.parametrize("path", list(EntryPath))
@pytest.mark.parametrize("who", list(Standing))
def test_an_entry_open_to_guests_admits_everyone(who: Standing, path: EntryPath) -> None:
    assert _answer(who, path, False) is None


def test_the_table_has_every_cell_and_admit_reads_it() -> None:
    assert len(ADMISSIONS) == len(Standing) * len(EntryPath) * 2
    for (who, path, members_only), code in ADMISSIONS.items():
        assert _answer(who, path, members_only) == (None if code is None else code.value)


def test_a_refusal_says_why_in_words() -> None:
    with pytest.raises(LeagueRefusal) as refused:
        admit(Standing.PENDING, EntryPath.CUP, members_only=True)
    assert "approval" in refused.value.message


def test_the_league_built_by_hand_has_no_one_removed_by_default() -> None:
    league = League(id="l", name="n", owner="o", invite="i", members=frozenset({"o"}))
    assert league.removed == frozenset() and standing(league, "x") is Standing.OUTSIDER


def test_admitted_withdraws_whoever_the_league_no_longer_admits_and_keeps_the_order() -> None:
    """Issue 26: at a cup's draw or a night's composition, the registrations as the league
    stands then (the same table as :func:`admit`)."""
    from server.league.membership import admitted

    registered = {"bob": "Bob", "eve": "Eve", "ana": "Ana", "dan": "Dan", "zoe": "Zoe"}
    kept = admitted(registered, LEAGUE, EntryPath.CUP)
    assert kept == {"bob": "Bob", "ana": "Ana"}  # eve removed, dan pending, zoe outsider
    assert list(kept) == ["bob", "ana"]
    assert admitted(registered, None, EntryPath.NIGHT) == {}  # no league: all outsiders
    assert admitted({}, LEAGUE, EntryPath.NIGHT) == {}
