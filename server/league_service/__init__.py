"""The league service: what a league decides about money and membership, above the pure
rules of server/league/ and server/cash/ and below the gateway, which only routes to it
(issue 26). Its first resident is the season capital (:mod:`.capital`)."""

from .capital import CAPITAL_REFUSED, SeasonCapital

__all__ = ["CAPITAL_REFUSED", "SeasonCapital"]
