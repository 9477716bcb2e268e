"""Fair dealing without rabbit hunting: CSPRNG shuffle, the player's cut, per-position
commitments and signed hand records (docs/fairness.md).

The table server, per hand::

    deck = Deck.shuffled()                       # commit: send deck.root_hex at hand start
    deck.apply_cut(n)  # or deck.apply_random_cut() when the cutter times out (cdc 5.2)
    layout = deal_layout(players)
    hole = [deck.deal(s)[1] for s in layout.hole[i]]  # and the board from layout.board
    # (several runs of the board, fpc multi-bordes: deal_layout(players, runs) and the
    # runs' cards from layout.runs; fairness_fields(..., runs_dealt=N, run_board_dealt=5|2))
    ...
    record = signer.sign_record(hand_record(..., deck=deck, layout=layout, ...))

A five-card draw hand (fpc « LE FIVE-CARD DRAW ») is dealt by a :class:`DrawDeal`
(:mod:`.draw`): the deck, the committed order of a new stub, the engine's ``HandSetup`` and
the record's fairness fields.

``protocol.verify`` checks the record; it holds the hashing construction both sides use.
"""

from .deck import DealingError, Deck, Opening, merkle_levels, merkle_proof
from .draw import DrawDeal, DrawLayout, Drawn, draw_layout, draws_of
from .layout import MAX_PLAYERS, MAX_RUNS, DealLayout, deal_layout
from .record import FAIRNESS_FIELDS, fairness_fields, hand_record, hole_openings
from .shuffle import RandBelow, TokenBytes, shuffle, shuffled_deck
from .signing import Signer

__all__ = [
    "FAIRNESS_FIELDS",
    "MAX_PLAYERS",
    "MAX_RUNS",
    "DealLayout",
    "DealingError",
    "Deck",
    "DrawDeal",
    "DrawLayout",
    "Drawn",
    "Opening",
    "RandBelow",
    "Signer",
    "TokenBytes",
    "deal_layout",
    "draw_layout",
    "draws_of",
    "fairness_fields",
    "hand_record",
    "hole_openings",
    "merkle_levels",
    "merkle_proof",
    "shuffle",
    "shuffled_deck",
]
