"""The host's answers: a HostReply as JSON text (src/sandbox/shared/host-calls.ts).

Only strings cross the boundary. In Pyodide an awaited JS promise may resolve
to a JS string proxy: it is turned into a Python `str` before anything else.
"""

from json import loads as _loads

from .errors import error_from_reply


def is_absent(value):
    """None, or JavaScript's null (Pyodide's `jsnull`; undefined already arrives as None)."""
    return value is None or type(value).__name__ == "JsNull"


def _text(value):
    if isinstance(value, str):
        return value
    if is_absent(value):
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
        return None if is_absent(json_text) else _loads(_text(json_text))
    raise error_from_reply(parsed.get("error"))


async def host_value(awaitable):
    """Awaits a host method and returns its reply's value."""
    return value_of(await awaitable)
