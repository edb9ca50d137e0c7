"""The host's answers: a HostReply as JSON text (src/sandbox/shared/host-calls.ts).

Only strings cross the boundary; anything else that arrives as a reply is
turned into a Python `str` before it is parsed.
"""

from json import JSONDecoder as _JSONDecoder
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


# The C scanner json.loads ends in, without its Python layers (a third of a tool call's time in Pyodide).
_scan = _JSONDecoder().scan_once


def _parse(text):
    """json.loads(text), the short way when text is one JSON value with nothing around it (as JSON.stringify writes)."""
    try:
        value, end = _scan(text, 0)
        if end == len(text):
            return value
    except StopIteration:
        pass
    return _loads(text)


def value_of(reply):
    """The JSON value of a reply as Python values, or its failure raised as the matching error class."""
    try:
        parsed = _parse(reply if type(reply) is str else _text(reply))
    except ValueError:
        raise RuntimeError("The host sent a reply that is not JSON") from None
    if not isinstance(parsed, dict):
        raise RuntimeError("The host sent a malformed reply")
    if parsed.get("ok") is True:
        json_text = parsed.get("json")
        if type(json_text) is str:
            return _parse(json_text)
        return None if is_absent(json_text) else _parse(_text(json_text))
    raise error_from_reply(parsed.get("error"))

