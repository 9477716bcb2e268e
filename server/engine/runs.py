"""Several runs of the board once two players are all-in before the turn: fpc cash's
"multi-bordes" (run it three times) and the friends' "run it twice" by agreement.

fpc, LE CASH GAME, « Particularité : le multi-bordes »: « Si et seulement si, deux joueurs
sont impliqués dans un tapis pré-flop ou avant la turn, il sera fait 3 tirages. Le pot est
divisé en trois, le gagnant de chaque tirage remporte le tier de pot correspondant. Tapis
pré-flop: 3 tirages complets (flop, turn, rivier) sont faits. Les cartes des tirages
précédents restent sur la table. Tapis avant la turn: 3 tirages turn et rivier sont faits. Le
flop reste identique pour les 3 tirages. »

When
    a betting round closes with exactly two players in the hand (not folded), betting over
    because of an all-in (at most one of them can still bet), and the turn not yet dealt:
    after the preflop round (N complete boards) or the flop round (the flop stays, N turns
    and rivers). Uncalled chips are returned first (:meth:`Showdown._return_uncalled`). A
    third player in the hand, even all-in for less, means no multi-run: « si et seulement
    si, deux joueurs » (one run). All-in on the turn or the river: one run (« pré-flop ou
    avant la turn »). The test is on the state, not on who went all-in when: two players
    left in the pot, no more betting, the turn to come.
How many runs
    :attr:`HandSetup.runs <server.engine.setup.HandSetup.runs>` (1..3). With
    ``runs_agreed=False`` they are dealt whenever the condition holds (the fpc cash table
    passes ``runs=3``; fpc tournaments keep 1: the multi-bordes is in the cash-game section
    only). With ``runs_agreed=True`` (a friends table's "run it twice", ``runs=2``) the hand
    stops in :attr:`Phase.RUNS <server.engine.state.Phase.RUNS>` once the condition holds
    (hands already face up, cdc 10.4) and waits for both players:
    :meth:`Runs.agree_runs` (:class:`~server.engine.commands.AgreeRuns`, ``runs`` from 1 to
    ``HandSetup.runs``, 1 to refuse). Several runs only if both name the same number; a
    refusal ends the wait at once with one run; :meth:`Runs.runs_timeout` (the table's
    clock) ends it with one run for whoever did not answer. :meth:`Runs.runs_awaited` names
    who has yet to answer. A refused command raises :class:`RuleError` and changes nothing.
Cards
    « Les cartes des tirages précédents restent sur la table »: every run has fresh cards.
    Run 1 is ``HandSetup.board`` (its streets are the usual :class:`BoardDealt` events and
    ``Hand.board``). Run ``k >= 2`` is ``HandSetup.extra_boards[k - 2]``, five cards: all
    five from a preflop all-in, only its turn and river (its last two) from a flop all-in,
    the flop being run 1's; its flop cards are then never dealt (never shown, cdc 3.6). The
    runs after the first are dealt after run 1's river, one :class:`RunDealt` per street.
Pots
    Every pot that two players contest is raked first (casino cash, :mod:`.rake`), then
    divided into N parts in whole chips of the smallest denomination; each part goes to the
    best hand on its run (a tie in a run splits that part as usual, tda 19, fpc 19-12). The
    odd chips of the division follow the profile's odd-chip rule read with the runs in the
    place of the players: fpc 19-12 « les jetons indivisibles sont donnés aux premiers
    joueurs à gauche du donneur » (one each) becomes one each to the first runs, as the
    first runs are dealt first, the way the first players left of the dealer are served
    first; casino « celui-ci sera attribué au joueur [...] le plus à gauche »: the whole
    remainder to run 1. The runs are dealt before anyone knows who wins them, so the rule
    favours no player. A pot only one of them can win (chips of a folded player over an
    all-in) is not divided. One :class:`PotAwarded` per run part (``run``); the pot's rake
    is written on run 1's part (its ``amount`` includes the rake, so each event's shares
    still add up to ``amount - rake``).
Events
    :class:`RunsOffered` (the wait begins), :class:`RunsAnswered` (each answer),
    :class:`RunsChosen` (how many runs, from which street; also without asking),
    :class:`RunDealt` (each street of runs 2 and 3), :class:`RunRanked` (the live hands on
    each run's board), :class:`PotAwarded` with its ``run``.
"""

from __future__ import annotations

from . import cards as _cards
from .commands import AgreeRuns
from .errors import ErrorCode, RuleError
from .events import Event, PotAwarded, RunDealt, RunRanked, RunsAnswered, RunsChosen, RunsOffered
from .showdown import _split
from .state import STREET_NAMES, HandState, Phase, PotView, Street

__all__ = ["MAX_RUNS", "RULE_AGREED", "RULE_MULTI_BORDES", "Runs"]

MAX_RUNS = 3
"""The most runs a hand may be dealt (fpc: « 3 tirages »)."""
RULE_MULTI_BORDES = "fpc-cash-multi-bordes"
"""The citation of runs dealt without asking (fpc, LE CASH GAME, « le multi-bordes »)."""
RULE_AGREED = "runs-agreed"
"""The citation of runs dealt because both players agreed (a friends table's house option;
no rulebook has it)."""


class Runs(HandState):
    """The runs of the board (a mixin of :class:`~server.engine.hand.Hand`)."""

    _values: dict[int, int]
    _run_values: dict[tuple[int, int], int]

    def _init_runs(self) -> None:
        self.runs = 1
        self.runs_from = Street.FLOP
        self.runs_decided = False
        self.runs_answers = {}
        self._run_values = {}

    # ------------------------------------------------------------------ queries

    def runs_awaited(self) -> tuple[str, ...]:
        """The players whose answer the hand waits for (empty outside :attr:`Phase.RUNS`)."""
        if self.phase is not Phase.RUNS:
            return ()
        return tuple(self.names[i] for i in self.live() if i not in self.runs_answers)

    def run_board(self, run: int) -> tuple[int, ...]:
        """The five cards of run ``run`` (1-based) once it is decided; run 1 is the board."""
        if run == 1:
            return self.board_cards
        extra = self.setup.extra_boards[run - 2]
        if self.runs_from is Street.TURN:
            return (*self.board_cards[:3], *extra[3:5])
        return tuple(extra)

    def boards(self) -> list[tuple[int, ...]]:
        """Each run's board as dealt so far (run 1 first): ``[tuple(Hand.board)]`` for a hand
        dealt once."""
        boards = [tuple(self.board)]
        if self.runs > 1 and self.phase in (Phase.SHOWDOWN, Phase.FINISHED):
            boards += [self.run_board(run) for run in range(2, self.runs + 1)]
        return boards

    # ------------------------------------------------------------------ commands

    def agree_runs(self, command: AgreeRuns) -> list[Event]:
        """One player's answer to the offer of several runs (see the module docstring).
        Raises :class:`RuleError` (``runs_not_offered`` outside the wait, ``not_in_hand``
        for a player out of the pot, ``declaration_binds`` for a second answer,
        ``bad_amount`` for a number outside 1..``HandSetup.runs``), changing nothing."""
        if self.phase in (Phase.FINISHED, Phase.CANCELLED):
            raise RuleError(ErrorCode.HAND_OVER, "the hand is over")
        i = self.index.get(command.player, -1)
        if i < 0:
            raise RuleError(ErrorCode.UNKNOWN_PLAYER, f"no player {command.player!r} in this hand")
        if self.phase is not Phase.RUNS:
            raise RuleError(
                ErrorCode.RUNS_NOT_OFFERED,
                "no runs are offered: only once two players are all-in before the turn",
                RULE_AGREED,
            )
        if self.folded[i]:
            raise RuleError(ErrorCode.NOT_IN_HAND, "this player is not in the pot")
        if i in self.runs_answers:
            raise RuleError(ErrorCode.DECLARATION_BINDS, "this player has already answered")
        runs = command.runs
        if not isinstance(runs, int) or isinstance(runs, bool) or not 1 <= runs <= self.setup.runs:
            raise RuleError(ErrorCode.BAD_AMOUNT, f"runs must be between 1 and {self.setup.runs}")
        mark = len(self.events)
        self.runs_answers[i] = runs
        self.events.append(RunsAnswered(player=self.names[i], runs=runs))
        answers = set(self.runs_answers.values())
        if runs == 1 or len(self.runs_answers) == len(self.live()):
            chosen = runs if len(answers) == 1 else 1
            note = "" if chosen > 1 else ("refused" if runs == 1 else "not the same number")
            self._end_wait(chosen, note)
        return self.events[mark:]

    def runs_timeout(self) -> list[Event]:
        """The table's clock ended the wait: whoever did not answer refused, one run. Raises
        :class:`RuleError` (``runs_not_offered``) outside the wait, changing nothing."""
        if self.phase is not Phase.RUNS:
            raise RuleError(ErrorCode.RUNS_NOT_OFFERED, "no runs are offered", RULE_AGREED)
        mark = len(self.events)
        self._end_wait(1, "no answer: one run")
        return self.events[mark:]

    # ------------------------------------------------------------------ the betting's hooks

    def _open_runs(self) -> bool:
        """A betting round has closed (uncalled chips returned, hands face up): decide the
        runs when the condition holds. True when the hand now waits for the players."""
        setup = self.setup
        if (
            self.runs_decided
            or setup.runs <= 1
            or self.n_live != 2
            or self.n_able > 1
            or self.street >= Street.TURN
        ):
            return False
        self.runs_from = Street(self.street + 1)
        if not setup.runs_agreed:
            self._choose(setup.runs, RULE_MULTI_BORDES, "")
            return False
        self.phase = Phase.RUNS
        self.to_act = -1
        self.events.append(
            RunsOffered(
                players=tuple(self.names[i] for i in self.live()),
                most=setup.runs,
                street=STREET_NAMES[self.runs_from],
                rule=RULE_AGREED,
            )
        )
        return True

    def _end_wait(self, runs: int, note: str) -> None:
        self._choose(runs, RULE_AGREED, note)
        self.phase = Phase.BETTING
        self._deal_next()

    def _choose(self, runs: int, rule: str, note: str) -> None:
        self.runs = runs
        self.runs_decided = True
        self.events.append(
            RunsChosen(runs=runs, street=STREET_NAMES[self.runs_from], rule=rule, note=note)
        )

    def _deal_runs(self) -> None:
        """Run 1's river is out: deal the other runs, street by street, then rank every run
        (the hands are face up: betting ended with an all-in, cdc 10.4)."""
        first = 3 if self.runs_from is Street.FLOP else 5
        for run in range(2, self.runs + 1):
            extra = self.setup.extra_boards[run - 2]
            if first == 3:
                self.events.append(RunDealt(run=run, street="flop", cards=tuple(extra[0:3])))
            self.events.append(RunDealt(run=run, street="turn", cards=tuple(extra[3:4])))
            self.events.append(RunDealt(run=run, street="river", cards=tuple(extra[4:5])))
        live = self.live()
        for run in range(1, self.runs + 1):
            self.events.append(
                RunRanked(
                    run=run,
                    board=self.run_board(run),
                    hands=tuple(
                        (self.names[i], _cards.hand_type(self._run_value(i, run))) for i in live
                    ),
                )
            )

    def _run_value(self, i: int, run: int) -> int:
        if run == 1:
            value = self._values.get(i)
            if value is None:
                value = self._values[i] = _cards.evaluate([*self.hole[i], *self.board_cards])
            return value
        key = (i, run)
        value = self._run_values.get(key)
        if value is None:
            value = self._run_values[key] = _cards.evaluate([*self.hole[i], *self.run_board(run)])
        return value

    def _award_runs(
        self, index: int, amount: int, eligible: list[int], field: list[int], rake: int
    ) -> PotView:
        """Pot ``index`` of ``amount`` chips (``rake`` of them retained), contested by
        ``field``: divided into the runs, each part to its run's best hand."""
        unit = self.denominations[0]
        remainder = self.profile.split_remainder
        rank = {i: k for k, i in enumerate(self.after_button)}
        parts = _split(amount - rake, self.runs, unit, remainder)
        names = self.names
        won: set[int] = set()
        for run, part in enumerate(parts, start=1):
            best = max(self._run_value(i, run) for i in field)
            winners = sorted(
                (i for i in field if self._run_value(i, run) == best), key=rank.__getitem__
            )
            shares = _split(part, len(winners), unit, remainder)
            for w, share in zip(winners, shares, strict=True):
                self.stack[w] += share
            won.update(winners)
            taken = rake if run == 1 else 0
            self.events.append(
                PotAwarded(
                    index=index,
                    amount=part + taken,
                    eligible=tuple(names[i] for i in eligible),
                    winners=tuple(names[w] for w in winners),
                    shares=tuple((names[w], s) for w, s in zip(winners, shares, strict=True)),
                    rule=self.profile.cite("odd_chip") if len(winners) > 1 else "",
                    rake=taken,
                    run=run,
                )
            )
        return PotView(
            amount=amount,
            eligible=tuple(names[i] for i in eligible),
            winners=tuple(names[i] for i in sorted(won, key=rank.__getitem__)),
        )
