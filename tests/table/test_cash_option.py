"""The casino « option » at a cash table, on the pure table.

casino cash [53]: « L'option est autorisée en Cash Game, il est possible de rentrer sur la
table directement en option. » The option is the casino's straddle: the first live player
left of the big blind posts, before the cards, a live blind of two big blinds, and speaks
last preflop (the engine's rule, ``HandSetup.option_seat``; tests/engine/test_option.py). At
the table a seated player chooses to post it whenever he is first after the big blind
(``option`` on/off, from the next deal), and a newcomer may sit « directement en option »
(``sit`` with ``option``): he is dealt in once first after the big blind, and the option is
his seat fee. fpc cash has no option (and ligue 6.9: « Un joueur ne peut pas faire
d'enjamber 'straddle' »): ``cash.option``.

Blinds 25/50 at seats 1-4 with the first button on seat 4: hand 1 has the small blind on
seat 1, the big blind on seat 2 and seat 3 first after it (the option's seat); the blinds
move one seat a hand (casino cash: no dead button).
"""

from __future__ import annotations

from typing import Any

from bots.mirror import TableMirror
from protocol import messages as m
from protocol.chips import chip_problems
from protocol.verify import verify_record
from server.cash import Refusal
from server.store.export import to_pokerstars
from server.table import commands as c
from server.table.cash import CashState
from server.table.phases import TablePhase

from .pure import Pure

CASH: dict[str, Any] = {"min_buyin": 500, "max_buyin": 5000, "rake_permille": 50, "rake_cap": 100}
BB = 50
OPTION = 2 * BB
"""casino cash, the option: a live blind of two big blinds."""


def table(profile: str = "casino") -> Pure:
    p = Pure(profile=profile, sb=25, bb=BB, max_seats=6, cash=CASH, action_seconds=5)
    cash(p).first_button = 4  # hand 1: button 4, small blind 1, big blind 2, seat 3 after it
    return p


def cash(p: Pure) -> CashState:
    assert p.table.cash is not None
    return p.table.cash


def balance(p: Pure) -> int:
    """Bought in − cashed out − rake − chips on the table: 0 between hands."""
    return cash(p).book.ledger.imbalance(s.stack for s in p.table.seats.values())


def buy(p: Pure, player: str, seat: int, amount: int = 1000, **kw: Any) -> None:
    conn = p.conn(player)
    p.do(c.Watch(conn=conn))
    p.do(c.BuyIn(conn=conn, seat=seat, name=player.upper(), amount=amount, **kw))


def four(profile: str = "casino") -> Pure:
    """Players a, b, c, d at seats 1-4, 1,000 each."""
    p = table(profile)
    for seat, player in enumerate("abcd", start=1):
        buy(p, player, seat)
    return p


def option(p: Pure, player: str, on: bool) -> None:
    p.send(p.conns[player], m.TakeOption(table="t1", on=on))


def cash_state(p: Pure, player: str = "a") -> dict[str, Any]:
    """The ``cash`` part of a snapshot ``player`` gets now (resync from scratch)."""
    p.send(p.conns[player], m.Resync(table="t1", last_seq=-1))
    state = p.last(player, m.Snapshot).state
    assert isinstance(state, dict)
    return dict(state["cash"])


def posts(p: Pure) -> list[tuple[int, str, int, int]]:
    """(seat, action, to, added) of the forced bets of the hand in play, as the table sent
    them to player a."""
    return [
        (e.seat, e.action, e.to, e.added)
        for e in p.of("a", m.ActionEvent)
        if e.hand == p.table.hand_no and e.action.startswith("post_")
    ]


def play_hand(p: Pure) -> None:
    """Deal the next hand and check or call it down; the ledger balances after it."""
    p.start_hand()
    while p.table.phase is TablePhase.BETTING:
        hand = p.table.hand
        assert hand is not None
        menu = hand.menu()
        assert menu is not None
        p.act(int(menu.player), "check" if menu.can_check else "call")
    p.until(TablePhase.BETWEEN)
    assert balance(p) == 0


def records(p: Pure) -> list[dict[str, Any]]:
    return [b.record[1] for b in p.net.store if b.record is not None]


def test_a_standing_option_is_posted_when_first_after_the_big_blind_and_not_otherwise() -> None:
    p = four()
    option(p, "c", True)
    assert p.errors("c") == []
    assert p.last("c", m.Notice).kind == "option"
    seen = cash_state(p)
    assert seen["option"] is True and seen["straddles"] == [3]
    for hand in range(1, 9):
        p.start_hand()
        positions = p.table.positions
        assert positions is not None
        first_after_bb = positions.big_blind % 4 + 1
        if first_after_bb == 3:
            # hands 1 and 5: seat 3 is first after the big blind (seat 2) and posts two big
            # blinds, live, after the blinds: the bet to call is the option
            assert hand in (1, 5)
            assert posts(p) == [
                (1, "post_sb", 25, 25),
                (2, "post_bb", BB, BB),
                (3, "post_option", OPTION, OPTION),
            ]
            hand_now = p.table.hand
            assert hand_now is not None and hand_now.setup.option == 3
            # the action starts on the option's left (seat 4); the next raise is to twice the
            # option (« it counts as the new big blind »)
            assert p.to_act() == 4
            menu = hand_now.menu()
            assert menu is not None and menu.call == OPTION and menu.min_raise_to == 2 * OPTION
            for seat in (4, 1, 2):
                p.act(seat, "call")
            # he speaks last preflop: he checks his option (nobody raised)
            assert p.to_act() == 3
            menu = hand_now.menu()
            assert menu is not None and menu.can_check
            p.act(3, "check")
            assert [b.street for b in p.of("a", m.BoardEvent)][-1] == "flop"
            assert sum(x["amount"] for x in p.last("a", m.BoardEvent).pots) == 4 * OPTION
        else:
            assert [k for _, k, _, _ in posts(p)] == ["post_sb", "post_bb"]
        while p.table.phase is TablePhase.BETTING:
            hand_now = p.table.hand
            assert hand_now is not None
            menu = hand_now.menu()
            assert menu is not None
            p.act(int(menu.player), "check" if menu.can_check else "call")
        p.until(TablePhase.BETWEEN)
        assert balance(p) == 0
    options = [r for r in records(p) if any(a["action"] == "post_option" for a in r["actions"])]
    assert [r["hand"] for r in options] == [1, 5]
    assert sum(s.stack for s in p.table.seats.values()) + cash(p).rake == 4000


def test_the_option_switched_on_or_off_counts_from_the_next_deal_never_the_hand_in_play() -> None:
    p = four()
    p.until(TablePhase.CUT)  # hand 1 is dealt: seat 3 is first after the big blind
    option(p, "c", True)
    p.until(TablePhase.BETTING)
    assert [k for _, k, _, _ in posts(p)] == ["post_sb", "post_bb"]  # not this hand
    assert cash_state(p)["straddles"] == [3]
    p.play_out("fold")
    p.until(TablePhase.BETWEEN)
    for _ in range(3):
        play_hand(p)
    p.until(TablePhase.CUT)  # hand 5: he is first after the big blind again
    option(p, "c", False)
    assert cash_state(p)["straddles"] == []
    p.until(TablePhase.BETTING)
    assert posts(p)[-1] == (3, "post_option", OPTION, OPTION)  # chosen when it was dealt
    p.play_out("fold")
    p.until(TablePhase.BETWEEN)
    for _ in range(4):  # hands 6 to 9: hand 9 has him first after the big blind again
        play_hand(p)
    assert p.table.hand_no == 9 and p.table.positions is not None
    assert p.table.positions.big_blind == 2
    assert not [a for a in records(p)[-1]["actions"] if a["action"] == "post_option"]
    assert balance(p) == 0


def test_the_option_is_refused_at_fpc_with_cash_option_and_changes_nothing() -> None:
    # fpc cash has no option (its section never names one): « cash.option »
    p = four("fpc")
    before = p.state()
    written = len(p.net.store)
    option(p, "a", True)
    assert p.errors("a") == [Refusal.OPTION.value] == ["cash.option"]
    assert p.state() == before and len(p.net.store) == written
    assert not cash(p).straddles
    seen = cash_state(p)
    assert seen["option"] is False and seen["straddles"] == []
    # nor may a newcomer come in « en option »: no seat, no buy-in in the ledger
    entries = list(cash(p).book.ledger.entries)
    buy(p, "e", 5, option=True)
    assert p.errors("e") == ["cash.option"]
    assert 5 not in p.table.seats and cash(p).book.ledger.entries == entries
    play_hand(p)
    assert not [a for a in records(p)[-1]["actions"] if a["action"] == "post_option"]
    # at a casino table, a spectator has no seat to post it from
    q = four()
    stranger = q.conn(None)
    q.do(c.Watch(conn=stranger))
    before = q.state()
    q.send(stranger, m.TakeOption(table="t1", on=True))
    assert q.errors(stranger) == ["not_seated"] and q.state() == before
    assert not cash(q).straddles
    # a friends table and a tournament table have no option (casino: « L'« Option » n'est
    # pas autorisée en tournoi »)
    for directed in (False, True):
        other = Pure(profile="casino", sb=25, bb=BB, max_seats=6, directed=directed)
        player = other.conn("x")
        other.do(c.Watch(conn=player))
        other.send(player, m.TakeOption(table="t1", on=True))
        assert other.errors(player) == ["cash.option"]


def test_a_newcomer_in_option_waits_to_be_first_after_the_big_blind_and_pays_no_seat_fee() -> None:
    # casino cash: « Tout joueur entrant en cours de partie sera tenu de mettre au minimum,
    # comme droit de siège, le montant équivalent de la grosse blind [...] il est possible de
    # rentrer sur la table directement en option »
    p = four()
    for _ in range(4):  # the button's first round is over: newcomers pay to come in
        play_hand(p)
    assert not cash(p).first_orbit
    buy(p, "e", 5, option=True)
    assert p.errors("e") == [] and p.table.seats[5].stack == 1000
    assert cash_state(p)["straddles"] == [5]
    # hands 5 and 6: the big blind on seats 2 and 3, the first after it is 3 then 4: he waits
    for expected_bb in (2, 3):
        p.start_hand()
        assert p.table.positions is not None
        assert p.table.positions.big_blind == expected_bb
        assert 5 not in p.table.dealt_in
        p.play_out("fold")
        p.until(TablePhase.BETWEEN)
        assert balance(p) == 0
    # hand 7: the big blind on seat 4, he is first after it: dealt in, he posts the option
    # (two big blinds, live), and no seat fee on top of it
    p.start_hand()
    assert p.table.positions is not None and p.table.positions.big_blind == 4
    assert 5 in p.table.dealt_in
    assert posts(p) == [
        (3, "post_sb", 25, 25),
        (4, "post_bb", BB, BB),
        (5, "post_option", OPTION, OPTION),
    ]
    posted = [e for e in p.of("a", m.ActionEvent) if e.action == "post_option"]
    assert [(e.seat, e.stack) for e in posted] == [(5, 1000 - OPTION)]
    assert cash_state(p)["straddles"] == []  # his entry is used; no standing choice
    p.play_out("fold")  # everyone folds to him: he wins the blinds
    p.until(TablePhase.BETWEEN)
    assert p.table.seats[5].stack == 1000 + 25 + BB
    assert balance(p) == 0
    # the next round he is dealt in like everyone, posting no option
    play_hand(p)
    assert 5 in p.table.dealt_in
    assert [k for _, k, _, _ in posts(p)] == ["post_sb", "post_bb"]
    # chips: bought in 5,000, the rake gone to the house, nothing created or lost
    assert sum(s.stack for s in p.table.seats.values()) + cash(p).rake == 5000


def test_a_newcomer_without_the_option_pays_his_seat_fee_at_once() -> None:
    """The same arrival without ``option``: dealt in at the next hand with a seat fee (the
    control of the test above). Five hands first: the last button is on seat 4, so the
    button moves to him (casino cash: no dead button, « La règle du bouton mort ne s'applique
    pas en Cash Game »); after four, he would be the small blind and wait a hand."""
    p = four()
    for _ in range(5):
        play_hand(p)
    buy(p, "e", 5)
    p.start_hand()
    assert 5 in p.table.dealt_in
    assert (5, "post_seat_fee", BB, BB) in posts(p)


def test_a_crash_keeps_the_choices_and_an_old_snapshot_still_loads() -> None:
    p = four()
    for _ in range(4):
        play_hand(p)
    option(p, "c", True)
    buy(p, "e", 5, option=True)
    snapshot = next(b.snapshot for b in reversed(p.net.store) if b.snapshot is not None)
    data = snapshot[2]
    back = table()
    back.table.restore(data, None)
    assert cash(back).straddles == {3} and cash(back).enter_option == {5}
    assert balance(back) == 0
    # a snapshot written before the option existed has none of its keys: nobody posts it
    old = {**data, "cash": {k: v for k, v in data["cash"].items()}}
    for key in ("straddles", "enter_option", "posting"):
        del old["cash"][key]
    older = table()
    older.table.restore(old, None)
    assert not cash(older).straddles and not cash(older).enter_option
    assert not cash(older).posting and balance(older) == 0
    # killed during the hand he posts it in: the snapshot of its deal says who posts the
    # option, so the hand dealt again (cdc 5.4) has the same one
    p.until(TablePhase.BETTING)
    assert posts(p)[-1] == (3, "post_option", OPTION, OPTION)
    snapshot = next(b.snapshot for b in reversed(p.net.store) if b.snapshot is not None)
    again = table()
    again.table.restore(snapshot[2], None)
    assert cash(again).posting == {3} and cash(again).straddles == {3}
    assert again.table.replay_positions == p.table.positions
    for seat, player in enumerate("abcd", start=1):  # the players come back to their seats
        conn = again.conn(player)
        again.do(c.Rejoin(conn=conn, seat=seat))
        again.do(c.Watch(conn=conn))
    again.start_hand()
    assert again.table.positions == p.table.positions
    dealt_again = [
        (1, "post_sb", 25, 25),
        (2, "post_bb", BB, BB),
        (3, "post_option", OPTION, OPTION),
    ]
    assert posts(again) == posts(p)[-3:] == dealt_again


def test_the_record_of_an_option_hand_verifies_and_reads_as_a_straddle() -> None:
    p = four()
    option(p, "c", True)
    p.start_hand()
    assert posts(p)[-1] == (3, "post_option", OPTION, OPTION)
    p.act(4, "raise", amount=2 * OPTION)  # the least raise: twice the option
    p.act(1, "fold")
    p.act(2, "fold")
    p.act(3, "call")
    while p.table.phase is TablePhase.BETTING:
        p.act(p.to_act(), "check")
    p.until(TablePhase.BETWEEN)
    record = records(p)[-1]
    assert chip_problems(record) == [] and verify_record(record) == []
    option_posts = [a for a in record["actions"] if a["action"] == "post_option"]
    assert [(a["seat"], a["to"], a["added"]) for a in option_posts] == [(3, OPTION, OPTION)]
    text = to_pokerstars([record])
    lines = text.splitlines()
    assert "C: posts straddle 100" in lines
    # after the blinds, before the cards; the raise is counted from the option
    assert lines.index("B: posts big blind 50") < lines.index("C: posts straddle 100")
    assert lines.index("C: posts straddle 100") < lines.index("*** HOLE CARDS ***")
    assert "D: raises 100 to 200" in lines and "C: calls 100" in lines
    # the bots' mirror follows the hand with no complaint (stacks, bets, chips)
    problems: list[str] = []
    mirror = TableMirror("t1", 1, lambda kind, detail: problems.append(f"{kind}: {detail}"))
    for message in p.of("a", m.Message):
        if isinstance(message, m.Snapshot):
            mirror.apply_snapshot(message)
            continue
        seq = getattr(message, "seq", None)
        if isinstance(seq, int) and mirror.accept(seq) == "apply":
            mirror.apply(message)
    assert problems == [] and mirror.hands_seen >= 1
