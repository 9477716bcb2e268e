"""Buy-ins, rebuys, cash-outs and the ledger of a cash table, per book (casino vs fpc)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.cash import (
    Capital,
    CashBook,
    CashError,
    Ledger,
    Move,
    Rebuy,
    Refusal,
    cash_rules,
    settle,
)

MIN = 60.0


def casino(**changes: object) -> CashBook:
    return CashBook(
        cash_rules("casino", sb=50, bb=100, min_buyin=2_000, max_buyin=10_000, **changes)
    )


def fpc() -> CashBook:
    rules = cash_rules("fpc")
    return CashBook(rules, capital=Capital(start=rules.capital or 0))


def refused(book: CashBook, player: str, amount: int, stack: int, now: float = 0.0) -> Refusal:
    with pytest.raises(CashError) as info:
        book.buy_in(player, player, amount, stack, now)
    return info.value.code


def test_casino_buy_in_within_the_limits_by_multiples_of_the_small_blind() -> None:
    # casino cash: « Le joueur peut se recaver par multiples de la petite blind tout en
    # respectant les limites minimales et maximales autorisées de la table »
    book = casino()
    assert refused(book, "a", 1_950, 0) is Refusal.BELOW_MIN
    assert refused(book, "a", 10_050, 0) is Refusal.ABOVE_MAX
    assert refused(book, "a", 2_025, 0) is Refusal.NOT_MULTIPLE
    assert book.ledger.entries == []  # a refused buy-in writes nothing
    entry = book.buy_in("a", "Ann", 2_050, 0, 1.0)
    assert (entry.move, entry.amount) == (Move.BUY_IN, 2_050)


def test_casino_adds_chips_when_announced_up_to_the_maximum_never_more() -> None:
    # casino cash: « Aucun apport de jetons extérieurs à la cave initiale n'est autorisé à
    # moins de l'annoncer préalablement et de ne pas dépasser le maximum de la table »
    book = casino()
    book.buy_in("a", "Ann", 5_000, 0, 0.0)
    assert book.buy_in("a", "Ann", 5_000, 5_000, 1.0).move is Move.TOP_UP  # to the maximum
    assert refused(book, "a", 50, 10_000) is Refusal.ABOVE_MAX
    # a stack of 300 topped up must reach the table's minimum again
    assert refused(book, "a", 1_000, 300) is Refusal.BELOW_MIN
    book.buy_in("a", "Ann", 1_700, 300, 2.0)
    # chips never change during a hand
    refusal = book.refusal("a", 100, 2_000, 3.0, in_hand=True)
    assert refusal is not None and refusal[0] is Refusal.IN_HAND


def test_no_cards_under_a_big_blind() -> None:
    # casino cash: « On ne peut pas recevoir de cartes avec une cave inférieure à la grosse
    # blind »: a host may lower the minimum buy-in, never under the big blind
    with pytest.raises(ValueError):
        cash_rules("casino", sb=50, bb=100, min_buyin=50, max_buyin=1_000)
    book = CashBook(cash_rules("casino", sb=50, bb=100, min_buyin=100, max_buyin=1_000))
    assert refused(book, "a", 50, 0) is Refusal.BELOW_MIN


def test_fpc_buy_in_500_to_5000_and_at_most_5000_per_session() -> None:
    # fpc cash: « La cave est comprise entre 500 et 5 000 jetons. Le montant de 5 000
    # jetons (en une ou plusieurs caves) est le maximum autorisé par session. »
    book = fpc()
    assert refused(book, "a", 475, 0) is Refusal.BELOW_MIN
    assert refused(book, "a", 5_025, 0) is Refusal.ABOVE_MAX
    book.buy_in("a", "Ann", 3_000, 0, 0.0)
    # « une recave n'est pas possible tant que l'on possède des jetons devant soi »
    assert refused(book, "a", 1_000, 25) is Refusal.NOT_BUSTED
    # busted: a rebuy, but 3,000 + 2,500 would pass the session's 5,000
    assert refused(book, "a", 2_500, 0) is Refusal.SESSION_CAP
    assert book.buy_in("a", "Ann", 2_000, 0, 1.0).move is Move.REBUY
    assert refused(book, "a", 500, 0) is Refusal.SESSION_CAP


def test_fpc_cash_out_is_whole_and_a_new_buy_in_waits_30_minutes() -> None:
    # fpc cash: « la décave ne peut être partielle et le joueur ne pourra disposer de
    # nouveau d'une cave qu'après une période de 30 minutes »
    book = fpc()
    book.buy_in("a", "Ann", 1_000, 0, 0.0)
    out = book.cash_out("a", 1_450, 100.0)
    assert out is not None and (out.move, out.amount) == (Move.CASH_OUT, 1_450)
    assert refused(book, "a", 1_000, 0, now=100.0 + 29 * MIN) is Refusal.WAIT
    assert book.buy_in("a", "Ann", 1_000, 0, 100.0 + 30 * MIN).move is Move.BUY_IN


def test_fpc_capital_bounds_every_buy_in_and_a_lost_capital_bars_cash_play() -> None:
    # fpc cash: « Le joueur ne peut en aucun cas engager une valeur de jetons supérieure à
    # son capital »; « L'adhérent ayant perdu la totalité de son capital ne pourra plus
    # participer aux sessions de Cash Game »
    rules = cash_rules("fpc")
    capital = Capital(start=40_000, balances={"a": 700, "b": 0})
    book = CashBook(rules, capital=capital)
    assert refused(book, "a", 1_000, 0) is Refusal.CAPITAL
    book.buy_in("a", "Ann", 700, 0, 0.0)
    assert capital.balance("a") == 0  # his chips are at the table
    book.cash_out("a", 0, 10.0)  # busted and gone: the capital is lost
    assert capital.barred("a")
    assert refused(book, "b", 500, 0) is Refusal.CAPITAL
    # gains move the capital: a member who doubles up keeps the difference
    book.buy_in("c", "Cy", 5_000, 0, 0.0)
    book.cash_out("c", 9_000, 60.0)
    assert capital.balance("c") == 44_000
    assert capital.standings()[0] == ("c", 44_000)


def test_a_player_who_leaves_with_his_stack_owes_a_seat_fee_at_the_casino_only() -> None:
    # casino cash: « Si un joueur quitte la table en retirant sa cave, il devra payer, comme
    # droit de siège, une grosse blind à son retour »
    book = casino()
    book.buy_in("a", "Ann", 2_000, 0, 0.0)
    book.cash_out("a", 2_500, 1.0)
    assert book.owes_return_fee("a")
    busted = casino()
    busted.buy_in("a", "Ann", 2_000, 0, 0.0)
    busted.cash_out("a", 0, 1.0)
    assert not busted.owes_return_fee("a")
    f = fpc()
    f.buy_in("a", "Ann", 2_000, 0, 0.0)
    f.cash_out("a", 2_500, 1.0)
    assert not f.owes_return_fee("a")


def test_the_host_removing_a_player_returns_his_stack_in_the_ledger() -> None:
    book = casino()
    book.buy_in("a", "Ann", 2_000, 0, 0.0)
    entry = book.cash_out("a", 1_800, 5.0, hand=7, by="Host")
    assert entry is not None and (entry.move, entry.by, entry.hand) == (Move.REMOVED, "Host", 7)
    assert "removed" in book.ledger.csv()


def test_the_ledger_csv_has_every_line_and_each_players_net() -> None:
    book = casino()
    book.buy_in("a", "Ann", 2_000, 0, 0.0)
    book.buy_in("b", "Bob", 3_000, 0, 0.0)
    book.rake(150, 10.0, hand=1)
    book.cash_out("b", 1_000, 20.0)
    text = book.ledger.csv({"a": 3_850})
    lines = text.splitlines()
    assert lines[0] == "at,move,player,name,amount,hand,by,table"
    assert "a,Ann,2000,0,3850,1850" in text
    assert "b,Bob,3000,1000,0,-2000" in text
    assert book.ledger.imbalance([3_850]) == 0
    assert Ledger.from_json(book.ledger.to_json()).entries == book.ledger.entries


def test_the_result_sheet_loses_a_shortfall_and_takes_a_surplus_from_those_who_returned() -> None:
    # fpc cash: « Si le montant des jetons rendus est inférieur au montant des jetons pris, la
    # différence sera perdue. Si le montant des jetons rendus est supérieur au montant pris,
    # la différence sera divisée par le nombre de joueurs ayant rendu des jetons et soustrait
    # des montants rendus. » « Tout joueur qui ne fait pas inscrire ses résultats sera
    # considéré comme perdant de la totalité de sa cave de départ. »
    short = settle({"a": 1_000, "b": 1_000}, {"a": 1_500, "b": 400})
    assert short.lost == 100 and short.results == {"a": 500, "b": -600}
    over = settle({"a": 1_000, "b": 1_000, "c": 1_000}, {"a": 2_000, "b": 1_100, "c": 0})
    assert over.surplus == 100 and over.results == {"a": 950, "b": 50, "c": -1_000}
    silent = settle({"a": 1_000, "b": 1_000}, {"a": 2_000})
    assert silent.results == {"a": 1_000, "b": -1_000}
    exact = settle({"a": 1_000, "b": 1_000}, {"a": 1_750, "b": 250})
    assert (exact.lost, exact.surplus) == (0, 0)


def test_the_rules_of_each_book() -> None:
    c, f = cash_rules("casino"), cash_rules("fpc")
    assert (c.rebuy, f.rebuy) == (Rebuy.ANNOUNCED, Rebuy.BUSTED)
    assert (f.sb, f.bb, f.min_buyin, f.max_buyin, f.session_cap) == (25, 50, 500, 5_000, 5_000)
    assert (f.capital, f.runs, f.cashout_wait_seconds) == (40_000, 3, 1_800)
    assert (c.capital, c.runs, c.unit, c.min_stack) == (None, 1, c.sb, c.bb)
    assert cash_rules("casino", sb=25, bb=50).unit == 25
    with pytest.raises(ValueError):
        cash_rules("casino", rake_permille=200)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_ledger_balances_to_the_chip(data: st.DataObject) -> None:
    """Property: whatever players buy in, win, lose, pay in rake and cash out, bought in −
    cashed out − rake = the chips on the table, and a refused move writes nothing."""
    book = casino(rake_permille=50)
    stacks: dict[str, int] = {}
    for step in range(data.draw(st.integers(1, 40))):
        kind = data.draw(st.sampled_from(["buy", "hand", "out"]))
        player = data.draw(st.sampled_from("abcd"))
        if kind == "buy":
            amount = data.draw(st.integers(0, 250)) * 50
            before = list(book.ledger.entries)
            try:
                book.buy_in(player, player, amount, stacks.get(player, 0), float(step))
                stacks[player] = stacks.get(player, 0) + amount
            except CashError:
                assert book.ledger.entries == before
        elif kind == "hand" and len(stacks) >= 2:
            a, b = data.draw(st.permutations(sorted(stacks)))[:2]
            moved = data.draw(st.integers(0, stacks[a]))
            rake = min(moved * 50 // 1000, moved)
            stacks[a] -= moved
            stacks[b] += moved - rake
            book.rake(rake, float(step), hand=step)
        elif kind == "out" and player in stacks:
            book.cash_out(player, stacks.pop(player), float(step))
        assert book.ledger.imbalance(stacks.values()) == 0


def test_a_season_capital_given_by_the_league_bounds_buy_ins_and_bars_a_lost_one() -> None:
    # fpc cash: « Le joueur ne peut en aucun cas engager une valeur de jetons supérieure à
    # son capital »; « L'adhérent ayant perdu la totalité de son capital ne pourra plus
    # participer aux sessions de Cash Game » (the capital over every table of a league's cash
    # season: server/league_service/capital.py reserves it, the book applies it)
    book = CashBook(cash_rules("fpc", sb=25, bb=50))
    assert book.refusal("a", 1_000, 0, 0.0, capital=800) == (
        Refusal.CAPITAL,
        "your capital allows 800",
    )
    code, message = book.refusal("a", 500, 0, 0.0, capital=0) or ("", "")
    assert code is Refusal.CAPITAL and "lost" in message
    assert book.refusal("a", 800, 0, 0.0, capital=800) is None
    with pytest.raises(CashError):
        book.buy_in("a", "Ann", 900, 0, 0.0, capital=800)
    assert book.ledger.entries == []
    book.buy_in("a", "Ann", 800, 0, 0.0, capital=800)
    assert book.ledger.bought("a") == 800
