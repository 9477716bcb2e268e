"""The wire protocol: message types, version, msgpack codec with validation, error codes."""

from .codec import MAX_FRAME, decode_client, decode_server, encode, to_wire
from .errors import ErrorCode, ProtocolError
from .messages import CLIENT_MESSAGES, PROTOCOL_VERSION, SERVER_MESSAGES, Message

__all__ = [
    "CLIENT_MESSAGES",
    "MAX_FRAME",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "ErrorCode",
    "Message",
    "ProtocolError",
    "decode_client",
    "decode_server",
    "encode",
    "to_wire",
]
