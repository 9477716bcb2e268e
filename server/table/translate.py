"""From the engine's events of one hand to table events, notices and the hand record (pure).

Engine players are seat numbers written as strings; table events
(:mod:`server.table.events`) use seat numbers. Each ``action`` event carries the player's
stack after it, tracked here event by event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final

from server.engine import card_name
from server.engine import events as ev
from server.table.events import Action, Board, Drawn, Drew, Hole, Pot, Shown, TableEvent

__all__ = ["HandLog", "Notice"]

Notice = tuple[int, str, str, str]
"""(seat, kind, text, rule): private, unsequenced."""

_POSTS = {
    "ante": "post_ante",
    "small_blind": "post_sb",
    "big_blind": "post_bb",
    "seat_fee": "post_seat_fee",  # casino cash: live, « droit de siège » (a newcomer's)
    # casino cash « miss blinds »: a returning player's owed big blind, live (« sa grosse
    # blind sera déposée devant sa case, comme un droit de siège »), not a newcomer's fee
    "missed_big_blind": "post_missed_bb",
    "dead_blind": "post_dead",  # casino cash: « miss blinds », dead money
    "option": "post_option",  # casino cash: « L'option est autorisée en Cash Game », live
}


class HandLog:
    """What one hand has shown the table so far, for its events and its hand record."""

    def __init__(self, hand_no: int, start_stacks: Mapping[int, int], names: Mapping[int, str]):
        self.hand_no = hand_no
        self.start_stacks = dict(start_stacks)
        self.names = dict(names)
        """Seat -> name at the start of the hand (busted players keep theirs in the record)."""
        self.stacks = dict(start_stacks)
        self.street = "preflop"
        self.actions: list[dict[str, Any]] = []
        self.held: dict[int, int] = {}
        """Chips a seat has put in before its action is complete (an undersized chip facing
        a bet, cdc 9.12): written with the action that completes it, never lost."""
        self.button = 0
        self.last_actor = 0
        """The seat whose action was last written on this street (or where the street's turn
        starts: the big blind preflop, the button after)."""
        self.deferred: list[dict[str, Any]] = []
        """Folds out of turn, written where the turn reaches their seat."""
        self.acted: set[int] = set()
        """Seats that acted on this street (blinds are posts, not actions)."""
        self.highest = 0
        """The highest total bet of this street."""
        self.reshuffled: int | None = None
        """Five-card draw: the cards of a new stub formed just before the next draw."""

    def _action(
        self, seat: int, action: str, to: int, added: int, allin: bool, rule: str, note: str
    ) -> Action:
        return Action(
            hand=self.hand_no,
            seat=seat,
            action=action,
            to=to,
            added=added,
            stack=self.stacks[seat],
            allin=allin,
            rule=rule,
            note=note,
        )

    def _entry(self, seat: int, action: str, to: int, added: int, allin: bool) -> dict[str, Any]:
        return {
            "street": self.street,
            "seat": seat,
            "name": self.names.get(seat, str(seat)),
            "action": action,
            "to": to,
            "added": added,
            "allin": allin,
        }

    def _log(self, seat: int, action: str, to: int, added: int, allin: bool) -> None:
        """Write an action into the record, after the folds out of turn of the seats the turn
        passed on its way from the last seat written to this one (cdc 9.3, tda 40-A: a fold
        out of turn takes effect when the action reaches the player)."""
        entry = self._entry(seat, action, to, added, allin)
        self.highest = max(self.highest, to)
        if action.startswith("post_"):
            self.actions.append(entry)
            return
        self.acted.add(seat)
        start = self.last_actor
        passed = [
            d for d in self.deferred if 0 < _arc(start, d["seat"]) < (_arc(start, seat) or _LAP)
        ]
        passed.sort(key=lambda d: _arc(start, d["seat"]))
        for d in passed:
            self.deferred.remove(d)
            d["street"] = self.street  # where it took effect
            self.actions.append(d)
        self.actions.append(entry)
        self.last_actor = seat

    def _flush_deferred(self) -> None:
        """The hand is over: the folds out of turn the turn never reached (a player who had
        nothing to call, in rounds that closed without coming back to him), in turn order
        at the end of the last street."""
        start = self.last_actor
        self.deferred.sort(key=lambda d: _arc(start, d["seat"]))
        self.actions.extend(self.deferred)
        self.deferred.clear()

    def translate(
        self, events: list[ev.Event], committed: Callable[[str], int]
    ) -> tuple[list[TableEvent], list[Notice]]:
        """Table events and private notices for some engine events, in order."""
        out: list[TableEvent] = []
        notices: list[Notice] = []
        for e in events:
            if isinstance(e, ev.HandStarted):
                self.button = e.button
                self.last_actor = int(e.big_blind) if e.big_blind else e.button
                continue
            if isinstance(e, ev.OutOfTurn):
                # pre-actions are private (ONLINE_RULES): only the player hears of them
                notices.append((int(e.player), f"oot_{e.status}", e.note, e.rule))
                continue
            if isinstance(e, ev.StubReshuffled):
                self.reshuffled = e.count  # said with the draw it comes before (``drew``)
                continue
            if isinstance(e, ev.RunsOffered):
                # the two players all-in before the turn may agree to run it twice (run_it)
                text = f"run the board up to {e.most} times from the {e.street}? (run_it)"
                notices.extend((int(p), "runs_offered", text, e.rule) for p in e.players)
                continue
            rule = self._TRANSLATE.get(type(e))
            if rule is not None:  # FaceUp: each hand also comes as a Shown event
                out.append(rule(self, e, committed))
        return out, notices

    def _posted(self, e: ev.Posted, committed: Callable[[str], int]) -> TableEvent:
        seat, kind = int(e.player), _POSTS[e.kind.value]
        self.stacks[seat] -= e.amount
        self._log(seat, kind, e.amount, e.amount, e.allin)
        if e.kind is ev.PostKind.OPTION:
            self.last_actor = seat  # the preflop turn starts on the option's left
        return self._action(seat, kind, e.amount, e.amount, e.allin, e.rule, "")

    def _dead(self, e: ev.DeadHand, committed: Callable[[str], int]) -> TableEvent:
        note = "absent at the deal: dead hand"
        return self._action(int(e.player), "dead_hand", 0, 0, False, e.rule, note)

    def _hole(self, e: ev.HoleDealt, committed: Callable[[str], int]) -> TableEvent:
        cards = tuple(card_name(c) for c in e.cards)
        return Hole(hand=self.hand_no, seat=int(e.player), cards=cards)

    def _acted(self, e: ev.Acted, committed: Callable[[str], int]) -> TableEvent:
        seat = int(e.player)
        self.stacks[seat] -= e.added
        added = e.added + self.held.pop(seat, 0)
        if e.out_of_turn:
            self.deferred.append(
                {**self._entry(seat, e.action, e.to, added, e.allin), "out_of_turn": True}
            )
        else:
            self._log(seat, e.action, e.to, added, e.allin)
        return self._action(seat, e.action, e.to, e.added, e.allin, e.rule, e.note)

    def _pending(self, e: ev.Pending, committed: Callable[[str], int]) -> TableEvent:
        seat = int(e.player)
        self.stacks[seat] -= e.added
        self.held[seat] = self.held.get(seat, 0) + e.added
        to = committed(e.player)
        return self._action(seat, "pending", to, e.added, False, e.rule, e.note)

    def _returned(self, e: ev.Returned, committed: Callable[[str], int]) -> TableEvent:
        seat = int(e.player)
        self.stacks[seat] += e.amount
        return self._action(seat, "returned", 0, e.amount, False, "", "uncalled chips returned")

    def _next_street(self, street: str) -> None:
        """The round is over: the folds out of turn of players who still owed an action (a
        bet to face, or no action yet this street) took effect when the turn passed them,
        after the last action; one by a player who had acted and had nothing more to call
        takes effect at his next turn, on the next street (the same chips either way)."""
        owed = [d for d in self.deferred if d["to"] < self.highest or d["seat"] not in self.acted]
        self.deferred = [d for d in self.deferred if d not in owed]
        owed.sort(key=lambda d: _arc(self.last_actor, d["seat"]))
        self.actions.extend(owed)
        self.acted.clear()
        self.highest = 0
        self.street = street
        self.last_actor = self.button  # after the flop, the turn starts left of the button

    def _board(self, e: ev.BoardDealt, committed: Callable[[str], int]) -> TableEvent:
        self._next_street(e.street)
        cards = tuple(card_name(c) for c in e.cards)
        return Board(hand=self.hand_no, street=e.street, cards=cards)

    def _drew(self, e: ev.Drew, committed: Callable[[str], int]) -> TableEvent:
        # five-card draw: the first betting round is over with the first draw; the actions
        # after it are the round of street ``draw`` (first left of the button)
        if self.street != "draw":
            self._next_street("draw")
        reshuffled, self.reshuffled = self.reshuffled, None
        return Drew(hand=self.hand_no, seat=int(e.player), count=e.count, reshuffled=reshuffled)

    def _draw_dealt(self, e: ev.DrawDealt, committed: Callable[[str], int]) -> TableEvent:
        return Drawn(
            hand=self.hand_no,
            seat=int(e.player),
            discarded=tuple(card_name(c) for c in e.discarded),
            received=tuple(card_name(c) for c in e.received),
            cards=tuple(card_name(c) for c in e.cards),
        )

    def _run(self, e: ev.RunDealt, committed: Callable[[str], int]) -> TableEvent:
        cards = tuple(card_name(c) for c in e.cards)
        return Board(hand=self.hand_no, street=e.street, cards=cards, run=e.run)

    def _shown(self, e: ev.Shown, committed: Callable[[str], int]) -> TableEvent:
        cards = tuple(card_name(c) for c in e.cards)
        return Shown(hand=self.hand_no, seat=int(e.player), cards=cards, rank=e.hand)

    def _mucked(self, e: ev.Mucked, committed: Callable[[str], int]) -> TableEvent:
        return self._action(int(e.player), "muck", 0, 0, False, "", "")

    def _pot(self, e: ev.PotAwarded, committed: Callable[[str], int]) -> TableEvent:
        for player, share in e.shares:
            self.stacks[int(player)] += share
        return Pot(
            hand=self.hand_no,
            index=e.index,
            amount=e.amount,
            winners=tuple(int(w) for w in e.winners),
            shares=tuple(s for _, s in e.shares),
            run=e.run if e.run > 1 else None,  # fpc multi-bordes: the second run's part
            rake=e.rake or None,  # casino cash, « la taille »
        )

    def record(
        self, hand_events: list[ev.Event], board: list[str], final: Mapping[int, int]
    ) -> dict[str, Any]:
        """The table's part of the hand record (the caller adds the table, blinds, times and
        the fairness fields, then signs it)."""
        self._flush_deferred()
        shown: dict[str, list[str]] = {}
        mucked: list[int] = []
        pots: list[dict[str, Any]] = []
        returned: list[dict[str, Any]] = []
        for e in hand_events:
            if isinstance(e, ev.Shown):
                shown[e.player] = [card_name(c) for c in e.cards]
            elif isinstance(e, ev.Mucked):
                mucked.append(int(e.player))
            elif isinstance(e, ev.PotAwarded):
                pot: dict[str, Any] = {
                    "amount": e.amount,
                    "winners": [int(w) for w in e.winners],
                    "shares": [[int(p), s] for p, s in e.shares],
                    "index": e.index,
                }
                if e.rake:  # casino cash, « la taille »: shares pay amount - rake
                    pot["rake"] = e.rake
                if e.run > 1:  # fpc multi-bordes, run it twice: this run's part of the pot
                    pot["run"] = e.run
                pots.append(pot)
            elif isinstance(e, ev.Returned):
                seat = int(e.player)
                name = self.names.get(seat, e.player)
                returned.append({"seat": seat, "name": name, "amount": e.amount})
        pots.sort(key=lambda p: (p["index"], p.get("run", 1)))
        return {
            "hand": self.hand_no,
            "players": [
                {"seat": s, "name": self.names.get(s, str(s)), "stack": v}
                for s, v in sorted(self.start_stacks.items())
            ],
            "actions": self.actions,
            "returned": returned,
            "board": board,
            "shown": shown,
            "mucked": mucked,
            "pots": pots,
            "final_stacks": {str(s): v for s, v in final.items()},
        }

    _TRANSLATE: ClassVar[
        dict[type[Any], Callable[[HandLog, Any, Callable[[str], int]], TableEvent]]
    ] = {
        ev.Posted: _posted,
        ev.DeadHand: _dead,
        ev.HoleDealt: _hole,
        ev.Acted: _acted,
        ev.Pending: _pending,
        ev.Returned: _returned,
        ev.BoardDealt: _board,
        ev.RunDealt: _run,
        ev.Drew: _drew,
        ev.DrawDealt: _draw_dealt,
        ev.Shown: _shown,
        ev.Mucked: _mucked,
        ev.PotAwarded: _pot,
    }
    """The table event of each engine event (OutOfTurn: a private notice; FaceUp: none;
    StubReshuffled: said by the ``drew`` after it)."""


_LAP: Final = 100
"""More than any seat number: distances around the table are taken modulo this."""


def _arc(start: int, seat: int) -> int:
    """How far ``seat`` is from ``start`` going clockwise (0: the same seat). Seat numbers
    need not be occupied (a dead button): only their order around the table matters."""
    return (seat - start) % _LAP
