"""Satellites: seats from the field, the bubble tie shared (cdc 1.10, 2.7), the seat rule's
text and the tickets, and the ligue's qualification of ranked players."""

from __future__ import annotations

from fractions import Fraction

import pytest

from server.league import (
    DEFAULT_SEATS,
    Entry,
    EventKind,
    EventResult,
    LeagueConfigError,
    PlaceTable,
    QualificationRule,
    SeasonRules,
    SeatPlan,
    SeatsFromPool,
    SeatsPerEntries,
    Ticket,
    award_seats,
    issue_tickets,
    qualified_players,
    seat_rule,
    standings,
)

from .helpers import day, finish, names


def test_seats_per_entries() -> None:
    rule = SeatsPerEntries(entries_per_seat=10)
    assert rule.plan(47) == SeatPlan(seats=4)
    assert rule.plan(5).seats == 1  # at least one seat
    assert SeatsPerEntries(entries_per_seat=10, minimum=0).plan(5).seats == 0
    with pytest.raises(LeagueConfigError):
        SeatsPerEntries(entries_per_seat=0)


def test_seats_from_the_pool_and_the_remainder_to_the_next_place() -> None:
    rule = SeatsFromPool(buy_in=20, target_buy_in=100)
    plan = rule.plan(47)  # 940: nine seats of 100, 40 left
    assert plan == SeatPlan(seats=9, seat_value=100, remainder=40)
    players = names(47)
    awards = award_seats(finish("sat", players, kind=EventKind.SATELLITE), plan)
    assert [a.player_id for a in awards if a.seat] == players[:9]
    assert awards[9].player_id == players[9] and awards[9].cash == 40 and not awards[9].seat
    assert all(a.cash == 0 and not a.seat for a in awards[10:])
    assert SeatsFromPool(buy_in=20, target_buy_in=100, added=60).plan(47).seats == 10
    assert SeatsFromPool(buy_in=100, target_buy_in=50).plan(3).seats == 3  # no more than entries


def test_a_tie_at_the_bubble_shares_the_last_seat() -> None:
    # cdc 1.10: "S'il s'agit de la bulle, voir le §2.7"; cdc 2.7: two players out in the
    # same hand-for-hand hand at two tables "seront classés à égalité (avec partage du
    # prizepool du dernier payé le cas échéant)". 23 entries at 20 for a 100 target:
    # 4 seats and 60 left; two players tie for 4th: neither gets a whole seat, each is
    # owed half a seat and half of the 60 (the 5th place's prize, inside their block).
    players = names(23)
    plan = SeatsFromPool(buy_in=20, target_buy_in=100).plan(23)
    assert plan == SeatPlan(seats=4, seat_value=100, remainder=60)
    result = finish("sat", players, ties={players[4]: 4}, kind=EventKind.SATELLITE)
    awards = {a.player_id: a for a in award_seats(result, plan)}
    assert [awards[p].seat for p in players[:3]] == [True, True, True]
    for p in players[3:5]:
        assert awards[p].place == 4
        assert (awards[p].seat, awards[p].seat_share, awards[p].cash) == (
            False,
            Fraction(1, 2),
            Fraction(30),
        )
    assert awards[players[5]].place == 6 and awards[players[5]].cash == 0


def test_ties_inside_or_outside_the_seats_share_nothing_unusual() -> None:
    players = names(10)
    plan = SeatPlan(seats=3, seat_value=100, remainder=50)
    # tied 2nd with 3 seats: both inside, both seated
    inside = award_seats(finish("s", players, ties={players[2]: 2}), plan)
    assert [a.seat for a in inside[:3]] == [True, True, True]
    assert inside[3].cash == 50  # 4th takes the remainder
    # three tied 4th (just outside): they share the remainder only
    outside = award_seats(finish("s", players, ties={players[4]: 4, players[5]: 4}), plan)
    assert [a.cash for a in outside[3:6]] == [Fraction(50, 3)] * 3
    assert not any(a.seat or a.seat_share for a in outside[3:])


def test_ligue_qualification_of_ranked_players() -> None:
    # ligue PRÉAVIS 1: "afin de permettre aux joueurs classés de jouer le journalier"
    season = SeasonRules(points=PlaceTable(points=(10, 6, 4, 3)))
    events = [
        finish("d1", ["a", "b", "c", "d", "e"], when=day(0)),
        finish("d2", ["b", "a", "e", "c", "d"], when=day(1), ties={"c": 3}),
    ]
    rows = standings(season, events)
    # a and b: 16 points, one win, best 10 each: ex aequo
    assert [(r.player_id, r.points, r.rank) for r in rows] == [
        ("a", 16, 1),
        ("b", 16, 1),
        ("c", 8, 3),
        ("e", 4, 4),
        ("d", 3, 5),
    ]
    monthly = QualificationRule(kind=EventKind.MONTHLY, top=3)
    assert qualified_players(rows, monthly) == ("a", "b", "c")
    # ex aequo at the cut: both qualify
    only_one = QualificationRule(kind=EventKind.MONTHLY, top=1)
    assert qualified_players(rows, only_one) == ("a", "b")
    by_points = QualificationRule(kind=EventKind.QUARTERLY, min_points=4, min_played=2)
    assert qualified_players(rows, by_points) == ("a", "b", "c", "e")
    with pytest.raises(LeagueConfigError):
        QualificationRule(kind=EventKind.SIT_AND_GO, top=3)
    with pytest.raises(LeagueConfigError):
        QualificationRule(kind=EventKind.MONTHLY)


# ---------------------------------------------------------------------- the rule's text


def test_a_seat_rule_is_written_as_text() -> None:
    assert seat_rule("per:10") == SeatsPerEntries(entries_per_seat=10)
    assert seat_rule("per:10,0") == SeatsPerEntries(entries_per_seat=10, minimum=0)
    assert seat_rule("pool:20,100") == SeatsFromPool(buy_in=20, target_buy_in=100)
    assert seat_rule("pool:20,100,60") == SeatsFromPool(buy_in=20, target_buy_in=100, added=60)
    # the book-less default: one seat per ten entries, at least one
    assert DEFAULT_SEATS == "per:10"
    default = seat_rule(DEFAULT_SEATS)
    assert [default.plan(n).seats for n in (2, 9, 10, 19, 20, 47)] == [1, 1, 1, 1, 2, 4]
    for bad in ("", "per", "per:", "per:0", "per:x", "per:1,2,3", "pool:20", "pool:1,0", "x:1"):
        with pytest.raises(LeagueConfigError):
            seat_rule(bad)
    with pytest.raises(LeagueConfigError):
        seat_rule("per:1,-1")
    with pytest.raises(LeagueConfigError):
        seat_rule(f"pool:20,{10**10}")


# ---------------------------------------------------------------------- tickets


def test_tickets_of_a_tied_bubble_share_a_seat_and_every_tied_member_enters() -> None:
    # the book's case above (23 entries at 20 for a 100 target: 4 seats, 60 left; two tied
    # 4th): as tickets, the tied players each hold half a seat and half of the 60
    # (cdc 2.7 "avec partage du prizepool du dernier payé"), and both members enter
    players = names(23)
    plan = SeatsFromPool(buy_in=20, target_buy_in=100).plan(23)
    result = finish("sat", players, ties={players[4]: 4}, kind=EventKind.SATELLITE)
    members = frozenset(players[:4])  # players[4], tied 4th, came as a guest
    tickets = issue_tickets(
        result, plan, target="final", members=members, names={players[0]: "Ana"}
    )
    assert [t.player_id for t in tickets] == players[:5]
    first = tickets[0]
    assert first == Ticket(
        satellite="sat",
        target="final",
        player_id=players[0],
        name="Ana",
        place=1,
        seats=Fraction(1),
        seat_value=100,
        member=True,
    )
    assert (first.shared, first.enters) == (False, True)
    tied_member, tied_guest = tickets[3], tickets[4]
    for ticket in (tied_member, tied_guest):
        assert (ticket.place, ticket.seats, ticket.cash, ticket.shared) == (
            4,
            Fraction(1, 2),
            Fraction(30),
            True,
        )
    assert tied_member.enters and tied_member.note == ""
    assert not tied_guest.enters and tied_guest.note.startswith("a guest")
    assert tied_guest.name == players[4]  # no name known: the id


def test_a_player_s_two_entries_in_the_seats_make_one_ticket_of_two_seats() -> None:
    # he busted 3rd... of the first entries, re-entered and won: one entry in the target,
    # the ticket says what the pool paid for him
    result = EventResult(
        event_id="sat",
        date=day(0),
        kind=EventKind.SATELLITE,
        entries=(
            Entry(player_id="a", place=1, entry=2),
            Entry(player_id="b", place=2),
            Entry(player_id="a", place=3),
            Entry(player_id="c", place=4),
            Entry(player_id="d", place=5),
        ),
    )
    plan = SeatPlan(seats=3, seat_value=50, remainder=10)
    tickets = issue_tickets(result, plan, target="t", members=frozenset("abcd"), names={})
    assert [(t.player_id, t.place, t.seats, t.cash) for t in tickets] == [
        ("a", 1, Fraction(2), Fraction(0)),
        ("b", 2, Fraction(1), Fraction(0)),
        ("c", 4, Fraction(0), Fraction(10)),  # the remainder: cash, no seat
    ]
    assert [t.enters for t in tickets] == [True, True, False]
    # nobody past the seats and the remainder holds a ticket
    assert "d" not in {t.player_id for t in tickets}
