"""The fpc's five-card draw as a cash game (issue 31): its cave, blinds, table size, hours,
absences, cash-out and capital, and the score sheet — pure, no table.

fpc LE FIVE-CARD DRAW (file 004 lines 895-915)."""

from __future__ import annotations

import pytest

from server.cash import (
    Absence,
    Away,
    Capital,
    CashBook,
    CashError,
    Deal,
    Entry,
    Move,
    Rebuy,
    Refusal,
    Terms,
    cash_rules,
    cash_terms,
    deal,
    game_refusal,
    settle,
)
from server.cash.hours import FPC_HOURS, Hours
from server.cash.rules import FPC_DRAW_CAPITAL, FPC_DRAW_CAVE
from server.engine.setup import Game, Structure

MIN = 60.0


def draw_book() -> CashBook:
    rules = cash_rules("fpc", game="draw")
    return CashBook(rules, capital=Capital(start=rules.capital or 0))


def refused(book: CashBook, player: str, amount: int, stack: int, now: float = 0.0) -> Refusal:
    with pytest.raises(CashError) as info:
        book.buy_in(player, player, amount, stack, now)
    return info.value.code


def test_the_fpc_draw_section_point_by_point() -> None:
    rules = cash_rules("fpc", game=Game.DRAW)
    assert rules.game is Game.DRAW and rules.structure is Structure.NO_LIMIT
    # fpc LE FIVE-CARD DRAW: « La cave est de 5 000 jetons »
    assert rules.min_buyin == rules.max_buyin == FPC_DRAW_CAVE == 5_000
    # « Les Blinds sont de 50/100 jetons et n'augmentent pas avec le temps »
    assert (rules.sb, rules.bb) == (50, 100)
    # « de 2 joueurs (minimum) à 6 joueurs (maximum) »
    assert rules.max_players == 6
    assert rules.seats_refusal(6) is None and rules.seats_refusal(7) is not None
    # « Le joueur absent de la table reçoit les cartes, les binds sont prélevées »
    assert rules.absence is Absence.DEALT_IN
    # « Un nouveau joueur peut intégrer une table en cours de jeu en choisissant une place
    # libre »: the fpc arrival, no seat fee
    assert rules.entry is Entry.POSITION and not rules.return_fee
    # « ne pourra disposer de nouveau d'une cave qu'après une période de 30 minutes »
    assert rules.cashout_wait_seconds == 30 * 60
    # « un capital de départ de 50 000 jetons » (the hold'em cash game's is 40,000)
    assert rules.capital == FPC_DRAW_CAPITAL == 50_000
    assert cash_rules("fpc").capital == 40_000
    # no board: one run, no straddle; the project's choices: a new cave once busted, no
    # session cap (the section has none)
    assert rules.runs == 1 and not rules.option
    assert rules.rebuy is Rebuy.BUSTED and rules.session_cap is None


def test_hold_em_cash_rules_are_unchanged() -> None:
    fpc = cash_rules("fpc")
    assert fpc.game is Game.HOLDEM and fpc.structure is Structure.NO_LIMIT
    assert (fpc.min_buyin, fpc.max_buyin, fpc.session_cap, fpc.runs) == (500, 5000, 5000, 3)
    assert fpc.max_players == 10
    casino = cash_rules("casino")
    assert casino.game is Game.HOLDEM and casino.option and casino.max_players == 10


def test_the_tables_open_at_the_books_hours() -> None:
    # fpc LE FIVE-CARD DRAW: « Les tables ouvrent à partir de 20h00 et ferment à 23h30
    # précise » (a league season's fpc table gets these hours, as the hold'em cash game's)
    rules = cash_rules("fpc", game="draw", hours=FPC_HOURS)
    opening = rules.opening()
    assert isinstance(opening, Hours) and FPC_HOURS == "20:00-23:30"


def test_the_cave_is_one_amount() -> None:
    book = draw_book()
    assert refused(book, "ana", 4_950, 0) is Refusal.BELOW_MIN
    assert refused(book, "ana", 5_050, 0) is Refusal.ABOVE_MAX
    entry = book.buy_in("ana", "ana", 5_000, 0, 0.0)
    assert entry.move is Move.BUY_IN and entry.amount == 5_000
    # a host may not make the fpc's cave a range
    with pytest.raises(ValueError, match="one amount"):
        cash_rules("fpc", game="draw", max_buyin=10_000)
    assert cash_rules("fpc", game="draw", min_buyin=2_000, max_buyin=2_000).max_buyin == 2_000


def test_a_new_cave_once_busted_never_while_chips_remain() -> None:
    book = draw_book()
    book.buy_in("ana", "ana", 5_000, 0, 0.0)
    assert refused(book, "ana", 5_000, 1_200, MIN) is Refusal.NOT_BUSTED
    assert book.buy_in("ana", "ana", 5_000, 0, 2 * MIN).move is Move.REBUY
    # no session cap in the draw section: a third cave is a cave like the others
    assert book.buy_in("ana", "ana", 5_000, 0, 3 * MIN).move is Move.REBUY


def test_a_whole_cash_out_then_thirty_minutes() -> None:
    # « Un joueur a la possibilité de décaver à tout moment. Toutefois la décave ne peut être
    # partielle et le joueur ne pourra disposer de nouveau d'une cave qu'après une période de
    # 30 minutes. »
    book = draw_book()
    book.buy_in("ana", "ana", 5_000, 0, 0.0)
    out = book.cash_out("ana", 7_300, 10 * MIN)
    assert out is not None and out.amount == 7_300  # the whole stack, never part
    assert refused(book, "ana", 5_000, 0, 39 * MIN) is Refusal.WAIT
    assert book.buy_in("ana", "ana", 5_000, 0, 40 * MIN).move is Move.BUY_IN


def test_the_capital_allows_no_cave_beyond_it() -> None:
    # « Le joueur ne peut en aucun cas engager une valeur de jetons supérieure à son
    # capital »; « L'adhérent ayant perdu la totalité de son capital ne pourra plus
    # participer aux sessions de Cash Game »
    book = draw_book()
    assert book.capital is not None
    book.capital.balances["ana"] = 4_000
    assert refused(book, "ana", 5_000, 0) is Refusal.CAPITAL
    book.capital.balances["ana"] = 0
    assert book.capital.barred("ana")
    code, words = book.refusal("ana", 5_000, 0, 0.0, capital=0) or (None, "")
    assert code is Refusal.CAPITAL and "lost" in words


def test_the_absent_player_is_dealt_in_however_long() -> None:
    # « Le joueur absent de la table reçoit les cartes, les blinds sont prélevées »
    rules = cash_rules("fpc", game="draw")
    for rounds in range(4):
        assert deal(Away(rounds=rounds), rules, waiting_list=True) is Deal.DEAD


def test_the_score_sheet_online() -> None:
    # « Si le montant des jetons rendus est inférieur au montant des jetons pris, la
    # différence sera perdue. Si le montant des jetons rendus est supérieur au montant pris,
    # la différence sera divisée par le nombre de joueurs ayant rendu des jetons et soustrait
    # des montants rendus. » Online the server counts every chip: the sheet balances.
    balanced = settle({"ana": 5_000, "bob": 5_000}, {"ana": 9_000, "bob": 1_000})
    assert balanced.results == {"ana": 4_000, "bob": -4_000}
    assert balanced.lost == balanced.surplus == 0
    # the rule applied anyway: a surplus shared among those who returned chips
    extra = settle({"ana": 5_000, "bob": 5_000, "cy": 5_000}, {"ana": 9_001, "bob": 6_001})
    assert extra.surplus == 2 and extra.results == {"ana": 4_000, "bob": 1_000, "cy": -5_000}
    # « Tout joueur qui ne fait pas inscrire ses résultats sera considéré comme perdant de la
    # totalité de sa cave de départ »
    assert settle({"ana": 5_000}, {}).results == {"ana": -5_000}


def test_the_terms_on_the_wire() -> None:
    assert cash_terms() == Terms()
    assert cash_terms("draw", "pot_limit") == Terms(game=Game.DRAW, structure=Structure.POT_LIMIT)
    assert Terms().changes() == {}
    assert Terms(game=Game.DRAW).changes() == {"game": "draw"}
    with pytest.raises(CashError) as game:
        cash_terms("stud")
    assert game.value.code is Refusal.GAME and game.value.code.value == "cash.game"
    with pytest.raises(CashError) as structure:
        cash_terms("draw", "fixed_limit")
    assert structure.value.code.value == "cash.structure"
    assert cash_rules("fpc", **Terms(game=Game.DRAW).changes()).game is Game.DRAW


def test_pot_limit_is_a_table_option() -> None:
    rules = cash_rules("fpc", game="draw", structure="pot_limit")
    assert rules.structure is Structure.POT_LIMIT and rules.game is Game.DRAW
    with pytest.raises(ValueError):
        cash_rules("fpc", game="draw", structure="spread")


def test_draw_has_no_board_to_run_nor_straddle() -> None:
    with pytest.raises(ValueError, match="runs 1"):
        cash_rules("fpc", game="draw", runs=3)
    with pytest.raises(ValueError, match="option"):
        cash_rules("casino", game="draw", option=True)
    with pytest.raises(ValueError, match="6 players"):
        cash_rules("casino", game="draw", max_players=9)


def test_chips_stay_with_their_game() -> None:
    # fpc: « Les caves sont spécifiques à chaque jeu »; « Le joueur peut changer de table,
    # pour cela il doit poser aussitôt ses jetons à sa nouvelle place » (within one game)
    holdem, draw = cash_rules("fpc"), cash_rules("fpc", game="draw")
    pot_limit = cash_rules("fpc", game="draw", structure="pot_limit")
    assert game_refusal(draw, draw) is None and game_refusal(draw, pot_limit) is None
    refusal = game_refusal(draw, holdem)
    assert refusal is not None and refusal[0] is Refusal.GAME
    assert game_refusal(holdem, draw) is not None
