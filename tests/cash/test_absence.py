"""Absences, missed blinds, seat fees and the waiting list (casino cash, fpc cash)."""

from __future__ import annotations

from server.cash import (
    Arrival,
    Away,
    Deal,
    Dues,
    WaitingList,
    arrival_dues,
    big_blind_came,
    cash_rules,
    deal,
    small_blind_came,
)

CASINO = cash_rules("casino", sb=50, bb=100)
FPC = cash_rules("fpc")


def absent_for(rounds: int, rules: object = CASINO, waiting_list: bool = False) -> list[Deal]:
    """The treatment of each deal of an absence, one deal per round (his big blind's)."""
    away, seen = Away(), []
    for _ in range(rounds):
        treated = deal(away, CASINO if rules is CASINO else FPC, waiting_list)
        seen.append(treated)
        away = big_blind_came(away, treated)
        if treated is Deal.DEAD:
            away = small_blind_came(away)  # dealt in: his small blind follows
    return seen


def test_casino_first_round_dealt_and_blinded_second_missed_third_sit_out() -> None:
    # casino cash: « Au premier tour de blind, le croupier donnera des cartes au joueur
    # absent et prélèvera ses blinds [...] Au deuxième tour de blind, le croupier lui mettra
    # les boutons « miss blinds », ne lui distribuera pas de cartes [...] Au troisième tour
    # de blind, le joueur sera considéré comme absent (« sit out ») »
    assert absent_for(4) == [Deal.DEAD, Deal.MISSED, Deal.SIT_OUT, Deal.SIT_OUT]
    assert deal(None, CASINO, waiting_list=True) is Deal.PLAY


def test_casino_with_a_waiting_list_one_round_at_most() -> None:
    # casino cash: « En cas de liste d'attente, la durée d'absence à une table ne peut être
    # supérieure à un tour de bouton [...] sa place sera libérée au delà d'un tour de bouton »,
    # and a list formed in the second or third round: « on lui retirera sa cave »
    assert absent_for(2, waiting_list=True) == [Deal.DEAD, Deal.FREE]
    assert deal(Away(rounds=2, missed=True), CASINO, waiting_list=True) is Deal.FREE


def test_fpc_absent_players_are_dealt_in_and_blinded_however_long() -> None:
    # fpc cash: « Le joueur absent de la table reçoit les cartes, les binds sont prélevées. »
    assert absent_for(5, FPC) == [Deal.DEAD] * 5
    assert deal(Away(rounds=9), FPC, waiting_list=True) is Deal.DEAD


def test_back_after_missed_blinds_pays_a_live_big_blind_and_a_dead_small_blind() -> None:
    # casino cash: « A son retour, il devra payer les « miss blinds » s'il a été absent
    # pendant plus d'un tour (sa grosse blind sera déposée devant sa case, comme un droit de
    # siège et la petite blind sera mise directement dans le pot) »
    one_round = small_blind_came(big_blind_came(Away(), Deal.DEAD))
    assert one_round == Away(rounds=1) and small_blind_came(Away()) == Away()
    assert arrival_dues(CASINO, Arrival.BACK, False, one_round) == Dues()
    two_rounds = big_blind_came(one_round, Deal.MISSED)
    assert arrival_dues(CASINO, Arrival.BACK, False, two_rounds) == Dues(live=100, dead=50)
    assert arrival_dues(FPC, Arrival.BACK, False, two_rounds) == Dues()


def test_seat_fees_of_a_newcomer_a_returning_player_and_a_rebuy_after_a_bust() -> None:
    # casino cash: « Tout joueur entrant en cours de partie sera tenu de mettre au minimum,
    # comme droit de siège, le montant équivalent de la grosse blind sauf si le bouton n'a
    # pas fini son premier tour »; « Si un joueur quitte la table en retirant sa cave, il
    # devra payer, comme droit de siège, une grosse blind à son retour »; after a bust and a
    # rebuy « on ne lui demandera pas de droit de siège »
    assert arrival_dues(CASINO, Arrival.NEW, first_orbit=True) == Dues()
    assert arrival_dues(CASINO, Arrival.NEW, first_orbit=False) == Dues(live=100)
    assert arrival_dues(CASINO, Arrival.RETURN, first_orbit=True) == Dues(live=100)
    assert arrival_dues(CASINO, Arrival.REBOUGHT, first_orbit=False) == Dues()
    # fpc cash sends to fpc 17-2: no fee, he plays from a position that keeps the blinds going
    assert arrival_dues(FPC, Arrival.NEW, first_orbit=False) == Dues()


def test_the_waiting_list_offers_seats_in_order_and_a_refusal_goes_to_the_end() -> None:
    # casino cash: « les places libres seront attribuées dans l'ordre d'inscription. Si un
    # joueur refuse un siège, son nom sera reporté en dernier sur la liste d'attente. »
    wl = WaitingList()
    assert [wl.join(p) for p in ("a", "b", "c")] == [1, 2, 3]
    assert wl.join("a") == 1  # once only
    assert wl.offer(4) == "a"
    assert wl.offer(4) == "a"  # the same offer until answered
    assert wl.offer(7) == "b"  # a second free seat goes to the next name
    assert wl.refuse(4, "a") == "c"  # a to the end; seat 4 to the next not offered one
    assert wl.names == ["b", "c", "a"]
    assert not wl.accept(4, "a")  # not his offer any more
    assert wl.accept(7, "b") and wl.names == ["c", "a"]
    assert wl.accept(4, "c") and wl.names == ["a"]
    wl.leave("a")
    assert not wl and wl.offer(2) is None
