"""Requests to the host: one asyncio future per request, resolved by `deliver`.

`host.send(kind, a, b, c)` is synchronous: it writes the request (kind "call":
server, tool, args_json; "search": query, limit, min_score; "op": name,
args_json) and returns its id. The host's answer, a HostReply as JSON text,
comes back through `deliver(id, reply_json)`, one function the runner holds for
the interpreter's life. No JavaScript promise is awaited from Python and no
proxy is made per call: in Pyodide both cost more than the round trip itself.
"""

from asyncio import Future as _Future
from asyncio import get_running_loop as _running_loop

from . import ready_queue
from .host_reply import value_of

# Futures by request id, for the run in progress (forget_all() at its end).
_pending = {}


def deliver(call_id, reply_json):
    """The host's reply to request `call_id`; an id nobody waits for (any more) is ignored."""
    future = _pending.pop(call_id, None)
    if future is None or future.done():
        return
    # In Pyodide, the woken code runs now, in the turn of the event loop that read the reply.
    ready_queue.resolve(future, reply_json)


async def request(host, kind, a, b=None, c=None):
    """Sends one request and returns its reply's value, or raises its failure as the matching error class."""
    # A plain future: the WebLoop's own adds a done callback, one more scheduled callback per call.
    future = _Future(loop=_running_loop())
    call_id = host.send(kind, a, b, c)
    _pending[call_id] = future
    try:
        reply = await future
    finally:
        # Cancelled (asyncio.wait_for, a cancelled task): a late reply finds nobody.
        _pending.pop(call_id, None)
    return value_of(reply)


def forget_all():
    """Drops the futures still waiting: their run is over."""
    _pending.clear()
