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
    and rivers). Uncalled chips are returned first. A third player in the hand, even all-in
    for less, means no multi-run: « si et seulement si, deux joueurs » (one run). All-in on
    the turn or the river: one run (« pré-flop ou avant la turn »). The test is on the state,
    not on who went all-in when: two players left in the pot, no more betting, the turn to
    come.
How many runs
    :attr:`HandSetup.runs <server.engine.setup.HandSetup.runs>` (1..3). With
    ``runs_agreed=False`` they are dealt whenever the condition holds (the fpc cash table
    passes ``runs=3``; fpc tournaments keep 1: the multi-bordes is in the cash-game section
    only). With ``runs_agreed=True`` (a friends table's "run it twice", ``runs=2``) the hand
    stops in :attr:`Phase.RUNS <server.engine.state.Phase.RUNS>` once the condition holds
    (hands already face up, cdc 10.4) and waits for both players:
    :meth:`~server.engine.hand.Hand.agree_runs` (:class:`~server.engine.commands.AgreeRuns`,
    ``runs`` from 1 to ``HandSetup.runs``, 1 to refuse). Several runs only if both name the
    same number; a refusal ends the wait at once with one run;
    :meth:`~server.engine.hand.Hand.runs_timeout` (the table's clock) ends it with one run for
    whoever did not answer. :meth:`~server.engine.hand.Hand.runs_awaited` names who has yet to
    answer. A refused command raises :class:`RuleError` and changes nothing.
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

Who owns what
    :class:`BoardRuns` is the runs' state (how many, from which street, the answers), a
    frozen value the hand replaces at each step (:meth:`BoardRuns.begin`,
    :meth:`BoardRuns.choose`, :meth:`BoardRuns.answer`); it builds the events that are its
    own (:meth:`BoardRuns.offer`, :meth:`BoardRuns.dealt`). The hand asks it when the runs
    are due (:meth:`BoardRuns.due`) and moves the chips and the phase itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from . import cards as _cards
from .errors import ErrorCode, RuleError
from .events import RunDealt, RunsChosen, RunsOffered
from .streets import STREET_NAMES, Street

__all__ = ["MAX_RUNS", "RULE_AGREED", "RULE_MULTI_BORDES", "BoardRuns"]

MAX_RUNS = 3
"""The most runs a hand may be dealt (fpc: « 3 tirages »)."""
RULE_MULTI_BORDES = "fpc-cash-multi-bordes"
"""The citation of runs dealt without asking (fpc, LE CASH GAME, « le multi-bordes »)."""
RULE_AGREED = "runs-agreed"
"""The citation of runs dealt because both players agreed (a friends table's house option;
no rulebook has it)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardRuns:
    """The runs of one hand's board (see the module docstring): a value, each step a new
    one (the hand holds the current one). Players are the hand's indices; runs are numbered
    from 1 (run 1 is the board)."""

    most: int
    """How many runs the hand may be dealt (``HandSetup.runs``); 1: never several."""
    agreed: bool
    """Several runs only if both players agree (``HandSetup.runs_agreed``)."""
    board: tuple[int, ...]
    """Run 1's five cards (``HandSetup.board``)."""
    extra_boards: tuple[tuple[int, ...], ...]
    """Five fresh cards for each run after the first (``HandSetup.extra_boards``)."""
    count: int = 1
    """How many runs are dealt (1 until several are decided)."""
    start: Street = Street.FLOP
    """The first street dealt once per run: the flop (all-in preflop) or the turn (all-in on
    the flop); meaningful once ``count > 1``."""
    decided: bool = False
    answers: tuple[tuple[int, int], ...] = ()
    """Each answer to the offer, in order: (player, how many runs; 1 refuses)."""
    values: dict[tuple[int, int], int] = field(default_factory=dict, compare=False, repr=False)
    """A memo, not state: (player, run) -> the value of his hand on that run (runs after the
    first; the hole cards of a hand dealt several runs never change)."""

    # ------------------------------------------------------------------ queries

    def due(self, *, in_pot: int, able: int, street: Street) -> bool:
        """A betting round has closed on ``street`` with ``in_pot`` players not folded,
        ``able`` of them able to bet: the runs are to be decided now."""
        return (
            not self.decided
            and self.most > 1
            and in_pot == 2
            and able <= 1
            and street < Street.TURN
        )

    def answered(self, i: int) -> bool:
        return any(j == i for j, _ in self.answers)

    def board_of(self, run: int) -> tuple[int, ...]:
        """The five cards of run ``run`` once it is decided; run 1 is the board."""
        if run == 1:
            return self.board
        extra = self.extra_boards[run - 2]
        if self.start is Street.TURN:
            return (*self.board[:3], *extra[3:5])
        return tuple(extra)

    def value(self, i: int, hole: tuple[int, ...], run: int) -> int:
        """The value of player i's hand ``hole`` on run ``run`` (after the first), computed
        once."""
        key = (i, run)
        value = self.values.get(key)
        if value is None:
            value = self.values[key] = _cards.evaluate([*hole, *self.board_of(run)])
        return value

    def verify_answer(self, i: int, runs: object) -> int:
        """Refuse a second answer (``declaration_binds``) or a number outside 1..``most``
        (``bad_amount``); the number of runs answered."""
        if self.answered(i):
            raise RuleError(ErrorCode.DECLARATION_BINDS, "this player has already answered")
        if not isinstance(runs, int) or isinstance(runs, bool) or not 1 <= runs <= self.most:
            raise RuleError(ErrorCode.BAD_AMOUNT, f"runs must be between 1 and {self.most}")
        return runs

    # ------------------------------------------------------------------ steps

    def begin(self, street: Street) -> BoardRuns:
        """The runs are due after the round of ``street``: they start on the next street."""
        return replace(self, start=Street(street + 1))

    def offer(self, players: tuple[str, ...]) -> RunsOffered:
        """The event of the wait for the players' agreement."""
        return RunsOffered(
            players=players, most=self.most, street=STREET_NAMES[self.start], rule=RULE_AGREED
        )

    def choose(self, runs: int, rule: str, note: str) -> tuple[BoardRuns, RunsChosen]:
        """``runs`` runs are dealt: the runs now, and the event."""
        chosen = RunsChosen(runs=runs, street=STREET_NAMES[self.start], rule=rule, note=note)
        return replace(self, count=runs, decided=True), chosen

    def answer(self, i: int, runs: int, *, in_pot: int) -> tuple[BoardRuns, RunsChosen | None]:
        """Player i answers ``runs`` (verified), one of ``in_pot`` players asked: the runs
        now, and when the wait ends (a refusal, or every answer in) the runs chosen, several
        only if every answer names the same number."""
        after = replace(self, answers=(*self.answers, (i, runs)))
        if runs != 1 and len(after.answers) != in_pot:
            return after, None
        chosen = runs if len({n for _, n in after.answers}) == 1 else 1
        note = "" if chosen > 1 else ("refused" if runs == 1 else "not the same number")
        return after.choose(chosen, RULE_AGREED, note)

    def dealt(self) -> list[RunDealt]:
        """Run 1's river is out: the streets of the other runs, run by run."""
        first = 3 if self.start is Street.FLOP else 5
        dealt: list[RunDealt] = []
        for run in range(2, self.count + 1):
            extra = self.extra_boards[run - 2]
            if first == 3:
                dealt.append(RunDealt(run=run, street="flop", cards=tuple(extra[0:3])))
            dealt.append(RunDealt(run=run, street="turn", cards=tuple(extra[3:4])))
            dealt.append(RunDealt(run=run, street="river", cards=tuple(extra[4:5])))
        return dealt
