"""The bots' checks catch what they are meant to catch (synthetic events, no server)."""

from __future__ import annotations

from dataclasses import replace

from bots import Histogram, Notebook
from bots.mirror import HandNotes, TableMirror
from protocol import messages as m

T = "t1"


def mirror() -> tuple[TableMirror, list[str]]:
    seen: list[str] = []
    mir = TableMirror(T, 1, lambda kind, detail: seen.append(kind))
    state = {"phase": "waiting", "hand": 0, "you": 1, "blinds": [50, 100, 0], "seats": []}
    mir.apply_snapshot(m.Snapshot(table=T, seq=0, state=state))
    return mir, seen


def feed(mir: TableMirror, *events: m.Message) -> list[str]:
    verdicts = []
    for e in events:
        verdict = mir.accept(e.seq)  # type: ignore[attr-defined]
        verdicts.append(verdict)
        if verdict == "apply":
            mir.apply(e)
    return verdicts


def start(seq: int = 1) -> m.HandStart:
    return m.HandStart(
        table=T, seq=seq, hand=1, button=1, big_blind=2, blinds=(50, 100, 0),
        stacks={"1": 1000, "2": 1000},
    )  # fmt: skip


def action(seq: int, seat: int, kind: str, to: int, added: int, stack: int) -> m.ActionEvent:
    return m.ActionEvent(
        table=T, seq=seq, hand=1, seat=seat, action=kind, to=to, added=added, stack=stack
    )


def test_a_clean_hand_raises_nothing() -> None:
    mir, seen = mirror()
    feed(
        mir,
        start(),
        action(2, 2, "post_bb", 100, 100, 900),
        m.HoleCards(table=T, seq=3, hand=1, seat=1, cards=("As", "Kd")),
        m.HoleCards(table=T, seq=4, hand=1, seat=2, cards=()),
        action(5, 1, "raise", 300, 300, 700),
        action(6, 2, "call", 300, 200, 700),
        m.PotAwarded(table=T, seq=7, hand=1, index=0, amount=600, winners=(1,), shares=(600,)),
        m.HandEnd(table=T, seq=8, hand=1, stacks={"1": 1300, "2": 700}),
    )
    assert seen == []
    assert mir.stacks == {1: 1300, 2: 700} and mir.pot == 0


def test_violations_are_caught() -> None:
    mir, seen = mirror()
    verdicts = feed(
        mir,
        start(),
        m.HoleCards(table=T, seq=2, hand=1, seat=2, cards=("Qs", "Qd")),  # someone else's
        action(3, 1, "bet", 100, 100, 950),  # 1000 - 100 is not 950
        m.PotAwarded(table=T, seq=4, hand=1, index=0, amount=100, winners=(1,), shares=(90,)),
        m.HandEnd(table=T, seq=6, hand=1, stacks={"1": 1000, "2": 1000}),  # seq 5 missing
    )
    assert verdicts[-1] == "gap"
    assert "hole_leak" in seen and "stack" in seen and "chips" in seen


def test_duplicates_are_ignored_after_a_snapshot() -> None:
    mir, seen = mirror()
    assert feed(mir, start(1), start(1)) == ["apply", "dup"]
    assert seen == []


def test_notebook_compares_bots() -> None:
    seen: list[str] = []
    book = Notebook(lambda kind, detail: seen.append(kind))
    book.join(T)
    book.join(T)
    a = HandNotes(T, 1, 1, holes={1: ("As", "Kd"), 2: ()}, shown={2: ("Qs", "Qd")})
    b = HandNotes(T, 1, 2, holes={1: (), 2: ("Qs", "Jd")}, board=["As", "2c", "3c"])
    book.hand_in(a)
    book.hand_in(b)
    assert sorted(seen) == ["duplicate_card", "shown"]


def test_histogram_percentiles_within_two_percent() -> None:
    h = Histogram()
    for i in range(1, 1001):
        h.add(i / 1000)
    p50, p99 = h.percentile(50), h.percentile(99)
    assert p50 is not None and abs(p50 - 0.5) / 0.5 < 0.03
    assert p99 is not None and abs(p99 - 0.99) / 0.99 < 0.03


def allin(e: m.ActionEvent) -> m.ActionEvent:
    return replace(e, allin=True)


def test_chips_no_live_hand_can_win_are_not_a_pot_but_a_mismatch_still_is() -> None:
    """Three players: seat 3 bets 400, seats 1 and 2 go all-in for 100, then seat 3 folds
    (a fold out of turn taking effect): his 300 above them can be won by nobody, and the
    server's pots leave them out until they come back to him at the hand's end (cdc 4.2
    ex. 2.1). The mirror accepts that, and still flags pots that lose chips otherwise."""

    def hand(board_pot: int) -> list[str]:
        mir, seen = mirror()
        begin = m.HandStart(
            table=T, seq=1, hand=1, button=3, big_blind=2, blinds=(50, 100, 0),
            stacks={"1": 100, "2": 100, "3": 1000},
        )  # fmt: skip
        feed(
            mir,
            begin,
            action(2, 1, "post_sb", 50, 50, 50),
            allin(action(3, 2, "post_bb", 100, 100, 0)),
            action(4, 3, "raise", 400, 400, 600),
            allin(action(5, 1, "call", 100, 50, 0)),
            action(6, 3, "fold", 400, 0, 600),
            m.BoardEvent(
                table=T, seq=7, hand=1, street="flop", cards=("2c", "7d", "9h"),
                pots=({"amount": board_pot, "eligible": [1, 2]},),
            ),
        )  # fmt: skip
        return seen

    assert hand(300) == []  # 100 + 100 + 100: seat 3's other 300 are nobody's
    assert hand(250) == ["pots"]


def test_chips_added_between_hands_are_the_next_hands_stack() -> None:
    """A cash top-up (a ``seat`` event ``stack``) is what the next hand starts with: no
    false alarm; a stack that grew with no such event still is one (found by the 300-hand
    cash test: a short stack of 25 topped up to 1,025)."""
    mir, seen = mirror()
    feed(
        mir,
        m.SeatEvent(table=T, seq=1, seat=2, player="b", stack=1000, status="seated"),
        m.SeatEvent(table=T, seq=2, seat=2, player="b", stack=25, status="short"),
        m.SeatEvent(table=T, seq=3, seat=2, player="b", stack=1025, status="stack"),
        replace(start(4), stacks={"1": 1000, "2": 1025}),
    )
    assert seen == []
    other, caught = mirror()
    feed(
        other,
        m.SeatEvent(table=T, seq=1, seat=2, player="b", stack=25, status="seated"),
        replace(start(2), stacks={"1": 1000, "2": 1025}),
    )
    assert caught == ["stack_carry"]


def test_an_allin_missed_while_away_is_read_from_the_snapshot() -> None:
    """Issue 32's `pots` violations under load: a bot that reconnects (a move, a restarted
    process) gets a snapshot of the hand it was seeing; the actions in between, an all-in
    among them, come only as that snapshot. The mirror kept its all-in set from before the
    gap, so the side pot the all-in made looked like "side pots with nobody all-in". A
    player dealt in with nothing behind is all-in: the snapshot says it."""
    mir, seen = mirror()
    begin = m.HandStart(
        table=T, seq=1, hand=1, button=1, big_blind=3, blinds=(50, 100, 0),
        stacks={"1": 1000, "2": 1000, "3": 300},
    )  # fmt: skip
    feed(mir, begin, action(2, 2, "post_sb", 50, 50, 950), action(3, 3, "post_bb", 100, 100, 200))
    # away: seat 3 raised all-in to 300, seat 1 raised to 600, seat 2 called 600
    state = {
        "phase": "betting", "hand": 1, "you": 1, "blinds": [50, 100, 0], "button": 1,
        "seats": [
            {"seat": 1, "player": "a", "stack": 400},
            {"seat": 2, "player": "b", "stack": 400},
            {"seat": 3, "player": "c", "stack": 0},
        ],
        "bets": {"1": 600, "2": 600, "3": 300}, "folded": [], "board": [],
        "pots": [],
    }  # fmt: skip
    mir.apply_snapshot(m.Snapshot(table=T, seq=7, state=state))
    flop = m.BoardEvent(
        table=T, seq=8, hand=1, street="flop", cards=("2c", "7d", "9h"),
        pots=({"amount": 900, "eligible": [1, 2, 3]}, {"amount": 600, "eligible": [1, 2]}),
    )  # fmt: skip
    feed(mir, flop)
    assert seen == []
    # and a side pot with truly nobody all-in is still caught
    mir2, seen2 = mirror()
    feed(mir2, begin, action(2, 2, "post_sb", 50, 50, 950), action(3, 3, "post_bb", 100, 100, 200))
    mir2.apply_snapshot(m.Snapshot(table=T, seq=7, state={**state, "seats": [
        {"seat": 1, "player": "a", "stack": 400},
        {"seat": 2, "player": "b", "stack": 400},
        {"seat": 3, "player": "c", "stack": 0 + 100},
    ], "bets": {"1": 600, "2": 600, "3": 200}}))  # fmt: skip
    feed(mir2, flop)
    assert "pots" in seen2


def test_what_each_seat_put_in_is_read_from_the_snapshot_after_a_gap() -> None:
    """Seen in the failover load test once the snapshot said who is all-in: the chips a
    folded player put in above every live all-in player are nobody's pot (cdc 4.2 ex. 2.1),
    which the mirror works out from what each seat put in; kept from before the gap, that sum
    missed the actions in between and made chips look unwinnable. From the hand's start
    stacks and the snapshot's, it is exact."""
    mir, seen = mirror()
    begin = m.HandStart(
        table=T, seq=1, hand=1, button=3, big_blind=2, blinds=(50, 100, 0),
        stacks={"1": 500, "2": 925, "3": 2000},
    )  # fmt: skip
    feed(
        mir,
        begin,
        action(2, 1, "post_sb", 50, 50, 450),
        action(3, 2, "post_bb", 100, 100, 825),
        action(4, 3, "raise", 900, 900, 1100),
    )
    # away: seat 1 calls all-in for 500, seat 2 goes all-in for 925, seat 3 folds (his 900
    # are under seat 2's 925: all in the pots, none unwinnable)
    state = {
        "phase": "betting", "hand": 1, "you": 1, "blinds": [50, 100, 0], "button": 3,
        "seats": [
            {"seat": 1, "player": "a", "stack": 0},
            {"seat": 2, "player": "b", "stack": 0},
            {"seat": 3, "player": "c", "stack": 1100},
        ],
        "bets": {"1": 500, "2": 925, "3": 900}, "folded": [3], "board": [], "pots": [],
    }  # fmt: skip
    mir.apply_snapshot(m.Snapshot(table=T, seq=9, state=state))
    flop = m.BoardEvent(
        table=T, seq=10, hand=1, street="flop", cards=("2c", "7d", "9h"),
        pots=({"amount": 1500, "eligible": [1, 2]}, {"amount": 825, "eligible": [2]}),
    )  # fmt: skip
    feed(mir, flop)
    assert seen == []
    assert mir.put == {1: 500, 2: 925, 3: 900}


def test_a_big_blind_ante_is_dead_money_not_a_contribution() -> None:
    """Seen at 1,000 bots (every bot of a table reporting the same hand): a big blind ante
    is dead money in the main pot (cdc 4.2), not the big blind's bet; counted as his, a big
    blind who folds to two all-ins for less than blind + ante seemed to leave chips above
    them that no one could win, which the server's pots rightly hold."""
    seen: list[str] = []
    mir = TableMirror(T, 1, lambda kind, detail: seen.append(kind))
    state = {
        "phase": "waiting", "hand": 0, "you": 1, "blinds": [50, 100, 100], "seats": [],
        "ante_format": "big_blind",
    }  # fmt: skip
    mir.apply_snapshot(m.Snapshot(table=T, seq=0, state=state))
    begin = m.HandStart(
        table=T, seq=1, hand=1, button=3, small_blind=1, big_blind=2, blinds=(50, 100, 100),
        stacks={"1": 150, "2": 2000, "3": 150},
    )  # fmt: skip
    feed(
        mir,
        begin,
        action(2, 2, "post_ante", 100, 100, 1900),
        action(3, 1, "post_sb", 50, 50, 100),
        action(4, 2, "post_bb", 100, 100, 1800),
        allin(action(5, 3, "allin", 150, 150, 0)),
        allin(action(6, 1, "call", 150, 100, 0)),
        action(7, 2, "fold", 100, 0, 1800),
        m.BoardEvent(
            table=T, seq=8, hand=1, street="flop", cards=("2c", "7d", "9h"),
            pots=({"amount": 500, "eligible": [1, 3]},),
        ),
    )  # fmt: skip
    assert seen == []
    assert mir.put == {1: 150, 2: 100, 3: 150} and mir.antes == {2: 100}


def test_one_ante_for_the_table_is_dead_money_whatever_the_snapshot_said() -> None:
    """The failover load test's case: the snapshot came before the tournament's first level
    set a big blind ante (its format said none); one player posting the ante for the table
    is the sign. Classic antes (every player's) stay contributions."""

    def hand(ante_format: str, posts: dict[int, int]) -> list[str]:
        seen: list[str] = []
        mir = TableMirror(T, 1, lambda kind, detail: seen.append(kind))
        state = {"phase": "waiting", "hand": 0, "you": 1, "blinds": [50, 100, 0], "seats": [],
                 "ante_format": ante_format}  # fmt: skip
        mir.apply_snapshot(m.Snapshot(table=T, seq=0, state=state))
        begin = m.HandStart(
            table=T, seq=1, hand=1, button=3, small_blind=1, big_blind=2, blinds=(50, 100, 100),
            stacks={"1": 150, "2": 2000, "3": 150},
        )  # fmt: skip
        stacks = {1: 150, 2: 2000, 3: 150}
        steps: list[m.Message] = [begin]
        seq = 2
        for seat, ante in posts.items():
            stacks[seat] -= ante
            steps.append(action(seq, seat, "post_ante", ante, ante, stacks[seat]))
            seq += 1
        stacks[1] -= 50
        stacks[2] -= 100
        steps += [
            action(seq, 1, "post_sb", 50, 50, stacks[1]),
            action(seq + 1, 2, "post_bb", 100, 100, stacks[2]),
            allin(action(seq + 2, 3, "allin", 150 - posts.get(3, 0), 150 - posts.get(3, 0), 0)),
            allin(action(seq + 3, 1, "call", 150 - posts.get(1, 0), stacks[1], 0)),
            action(seq + 4, 2, "fold", 100, 0, stacks[2]),
        ]
        total = 150 + 150 + (2000 - stacks[2])  # every chip put in
        steps.append(
            m.BoardEvent(
                table=T, seq=seq + 5, hand=1, street="flop", cards=("2c", "7d", "9h"),
                pots=({"amount": total, "eligible": [1, 3]},),
            )
        )  # fmt: skip
        feed(mir, *steps)
        return seen

    assert hand("none", {2: 100}) == []  # a big blind ante the snapshot did not announce
    assert hand("classic", {1: 10, 2: 10, 3: 10}) == []  # every player's: contributions
