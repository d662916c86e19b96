"""The agent server's stdio transport: every line a client sends is answered.

The SDK's own reader drops what it cannot take (a line that is not JSON, a request without
`jsonrpc`, `params` that is not an object, a lone surrogate) without a word, and the client then
waits for an answer that never comes. Here each line is read first: what is not a message the SDK
can take gets the error JSON-RPC 2.0 prescribes (-32700 for a line that is not JSON, -32600 for an
invalid request, -32602 for invalid params), with the request's id when it has one, and only the
rest reaches the SDK. Errors quote nothing of what was sent beyond a short prefix, and replies go
through the SDK's one writer, so they never interleave with its answers.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import anyio
import mcp_types as types
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602
SHOWN = 60  # characters of a bad line quoted back


def problem(line: str) -> tuple[Any, int, str] | None:
    """(id, code, message) of the error a line must get, or None for a message the SDK takes."""
    try:
        message = json.loads(line)
    except ValueError:
        return None, PARSE_ERROR, f"Parse error: not JSON ({_prefix(line)})"
    if not isinstance(message, dict):
        return None, INVALID_REQUEST, "Invalid Request: a message is a JSON object"
    ident = message.get("id")
    ident = ident if isinstance(ident, str | int) and not isinstance(ident, bool) else None
    try:
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return ident, INVALID_REQUEST, "Invalid Request: the text holds a lone surrogate"
    if message.get("jsonrpc") != "2.0":
        return ident, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"'
    if "method" in message and not isinstance(message["method"], str):
        return ident, INVALID_REQUEST, 'Invalid Request: "method" must be a string'
    if "params" in message and not isinstance(message["params"], dict):
        return ident, INVALID_PARAMS, 'Invalid params: "params" must be an object'
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError:
        return ident, INVALID_REQUEST, "Invalid Request: not a JSON-RPC message this server reads"
    return None


def _prefix(line: str) -> str:
    line = line.strip()
    shown = line[:SHOWN].encode("utf-8", "replace").decode("utf-8")
    return repr(shown + ("…" if len(line) > SHOWN else ""))


class _Checked:
    """The lines of standard input that are messages, in order; each other line is answered
    with its error through `replies` (set once the transport is open)."""

    def __init__(self) -> None:
        self.replies = None
        self.ready = anyio.Event()

    def attach(self, lines, replies) -> None:
        self.lines, self.replies = lines, replies
        self.ready.set()

    def __aiter__(self):
        return self._lines()

    async def _lines(self):
        await self.ready.wait()
        async for line in self.lines:
            if not line.strip():
                continue
            found = problem(line)
            if found is None:
                yield line
                continue
            ident, code, text = found
            error = types.JSONRPCError(
                jsonrpc="2.0", id=ident, error=types.ErrorData(code=code, message=text)
            )
            await self.replies.send(SessionMessage(error))


class _Brief(logging.Filter):
    """What the server writes to standard error is one short line per event: a client can leave
    standard error undrained, and a traceback or a 100 KB argument quoted back per request would
    fill the pipe until the server stops answering."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = " ".join(record.getMessage().split())
        record.msg = text if len(text) <= LOGGED else text[:LOGGED] + "…"
        record.args = ()
        record.exc_info = record.exc_text = record.stack_info = None
        return True


LOGGED = 300  # characters of a log line


def _brief_logs() -> None:
    for handler in logging.getLogger().handlers:
        handler.addFilter(_Brief())


async def serve(server) -> None:
    """Run the SDK's server (`MCPServer`) over standard input and output, every line answered."""
    _brief_logs()
    lines = anyio.wrap_file(_stdin())
    checked = _Checked()
    async with stdio_server(stdin=checked) as (read_stream, write_stream):
        checked.attach(lines, write_stream)
        lowlevel = server._lowlevel_server
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


def _stdin():
    import io
    import sys

    return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
