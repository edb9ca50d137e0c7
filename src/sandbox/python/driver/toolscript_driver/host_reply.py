"""The host's answers: a HostReply as JSON text (src/sandbox/shared/host-calls.ts).

Only strings cross the boundary. In Pyodide an awaited JS promise may resolve
to a JS string proxy: it is turned into a Python `str` before anything else.
"""

from json import loads as _loads

from .errors import error_from_reply


def _text(value):
    if isinstance(value, str):
        return value
    if value is None:
        raise RuntimeError("The host sent no reply")
    return str(value)


def value_of(reply):
    """The JSON value of a reply as Python values, or its failure raised as the matching error class."""
    try:
        parsed = _loads(_text(reply))
    except ValueError:
        raise RuntimeError("The host sent a reply that is not JSON") from None
    if not isinstance(parsed, dict):
        raise RuntimeError("The host sent a malformed reply")
    if parsed.get("ok") is True:
        json_text = parsed.get("json")
        return None if json_text is None else _loads(_text(json_text))
    raise error_from_reply(parsed.get("error"))


async def host_value(awaitable):
    """Awaits a host method and returns its reply's value."""
    return value_of(await awaitable)
