"""One frame written straight to the socket when nothing is waiting to be sent.

``await ws.send(frame)`` from a writer task costs a queue hand-off, a task switch and
websockets' send context for every frame; at 1,000 tables that was a quarter of the server's
time. When a connection has nothing queued, no send in progress and room in its transport's
buffer, ``write_now`` does what ``send`` would do for a binary frame (protocol frame, then
the bytes to the transport) at once. Otherwise the frame goes through the queue as before,
so order is kept and a client that does not read still fills its queue and is dropped.
"""

from __future__ import annotations

from typing import Any

from websockets.protocol import State

__all__ = ["write_now"]


def write_now(ws: Any, data: bytes, limit: int) -> bool:
    """Send ``data`` as one binary frame now if that cannot reorder or overfill anything;
    False (nothing done) if the caller must queue it."""
    try:
        protocol = ws.protocol
        transport = ws.transport
        if (
            protocol.state is not State.OPEN
            or getattr(ws, "send_in_progress", None) is not None
            or getattr(ws, "fragmented_send_waiter", None) is not None
            or transport.is_closing()
            or transport.get_write_buffer_size() >= limit
        ):
            return False
        send_binary = protocol.send_binary
        send_data = ws.send_data
    except AttributeError:  # another websockets version: always queue
        return False
    send_binary(data)
    send_data()
    return True
