"""The gateway's part of a table host's orders (``host`` messages, server.table.hosting)."""

from __future__ import annotations

from protocol import ErrorCode, ProtocolError
from protocol import messages as m
from server.gateway.connection import Connection
from server.table import commands as tc
from server.table.actor import TableActor
from server.tokens import TokenAuthority

__all__ = ["host_message"]


def host_message(actor: TableActor, auth: TokenAuthority, conn: Connection, msg: m.Host) -> None:
    """The token must be this table's ``host`` token (``bad_token`` otherwise, nothing
    changes); the order then goes to the table, which answers a refusal with its code."""
    claims = auth.verify(msg.token, "host")
    if claims.get("t") != msg.table:
        raise ProtocolError(ErrorCode.BAD_TOKEN, "this host token is for another table")
    order = tc.HostOrder(
        conn=actor.conn(conn),
        op=msg.op,
        seat=msg.seat,
        sb=msg.sb,
        bb=msg.bb,
        low=msg.min_buy_in,
        high=msg.max_buy_in,
        ref=msg.id,
    )
    actor.post(order, conn)
