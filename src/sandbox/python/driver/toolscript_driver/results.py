"""Python values as JSON text, the way JSON.stringify would write them, with a size cap.

Tuples become lists, sets sorted lists (in iteration order when they do not
sort), NaN and infinities `null`, dates ISO strings. Other objects become their
`repr` in a returned value, and a TypeError naming where they are in tool
arguments. The text is measured in UTF-8 bytes while it is written, and writing
stops as soon as it passes the cap: a huge value is never serialized whole.
"""

import datetime as _datetime
from json import JSONEncoder as _JSONEncoder
from json import dumps as _dumps

MAX_DEPTH = 200
_DATES = (_datetime.datetime, _datetime.date, _datetime.time)


class OutputTooLarge(Exception):
    """The JSON text passed `limit` bytes; `at_least` is how many were counted when writing stopped."""

    def __init__(self, at_least, limit):
        super().__init__(f"at least {at_least} bytes of JSON, over {limit}")
        self.at_least = at_least
        self.limit = limit


class _Writer:
    __slots__ = ("parts", "size", "limit")

    def __init__(self, limit):
        self.parts = []
        self.size = 0
        self.limit = limit

    def add(self, text):
        self.size += len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
        if self.limit is not None and self.size > self.limit:
            raise OutputTooLarge(self.size, self.limit)
        self.parts.append(text)

    def add_string(self, text):
        # Each character is at least one byte: a string that cannot fit is refused before it is copied.
        if self.limit is not None and self.size + len(text) + 2 > self.limit:
            raise OutputTooLarge(self.size + len(text) + 2, self.limit)
        self.add(_dumps(text, ensure_ascii=False))


def _safe_repr(value):
    try:
        return repr(value)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the result
        return f"<{type(value).__name__} object>"


def _key_text(key, path, strict, what):
    if isinstance(key, str):
        return str(key)
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    if isinstance(key, float):
        return float.__repr__(key) if key == key and key not in (float("inf"), float("-inf")) else "null"
    if strict:
        raise TypeError(f"{what} must be JSON-serializable, but {path} has a key of type {type(key).__name__}")
    return _safe_repr(key)


def _path(path, key):
    return f"{path}.{key}" if isinstance(key, str) and key.isidentifier() else f"{path}[{key!r}]"


def _sorted_or_listed(values):
    try:
        return sorted(values)
    except TypeError:
        return list(values)


def _write(writer, value, path, depth, active, strict, what):
    if value is None:
        writer.add("null")
    elif value is True:
        writer.add("true")
    elif value is False:
        writer.add("false")
    elif isinstance(value, str):
        writer.add_string(value)
    elif isinstance(value, int):
        writer.add(int.__repr__(value))
    elif isinstance(value, float):
        finite = value == value and value not in (float("inf"), float("-inf"))
        writer.add(float.__repr__(value) if finite else "null")
    elif isinstance(value, (dict, list, tuple, set, frozenset)):
        if depth >= MAX_DEPTH:
            raise ValueError(f"{what} is nested more than {MAX_DEPTH} levels deep at {path}")
        if id(value) in active:
            raise TypeError(f"{what} must be JSON-serializable, but {path} is a circular reference")
        active.add(id(value))
        if isinstance(value, dict):
            writer.add("{")
            first = True
            for key, item in value.items():
                text = _key_text(key, path, strict, what)
                if not first:
                    writer.add(",")
                writer.add_string(text)
                writer.add(":")
                _write(writer, item, _path(path, text), depth + 1, active, strict, what)
                first = False
            writer.add("}")
        else:
            items = _sorted_or_listed(value) if isinstance(value, (set, frozenset)) else value
            writer.add("[")
            for index, item in enumerate(items):
                if index > 0:
                    writer.add(",")
                _write(writer, item, f"{path}[{index}]", depth + 1, active, strict, what)
            writer.add("]")
        active.discard(id(value))
    elif isinstance(value, _DATES):
        writer.add_string(value.isoformat())
    elif strict:
        raise TypeError(f"{what} must be JSON-serializable, but {path} is a {type(value).__name__}")
    else:
        writer.add_string(_safe_repr(value))


def to_json(value, *, max_bytes=None, strict=False, what="The returned value", root="result"):
    """`value` as compact JSON text; OutputTooLarge past `max_bytes`, TypeError for what JSON cannot hold when `strict`."""
    writer = _Writer(max_bytes)
    _write(writer, value, root, 0, set(), strict, what)
    return "".join(writer.parts)


# Each level of nesting writes at least two characters ("[]" or "{}"): JSON text this short cannot pass MAX_DEPTH.
_SHALLOW_ENOUGH = 2 * MAX_DEPTH
# Made once: json.dumps with options builds a new encoder per call.
_COMPACT = _JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def arguments_json(value, label):
    """A tool's arguments as JSON text: json.dumps when it writes what to_json would, else to_json (and its errors)."""
    try:
        text = _COMPACT.encode(value)
    except (TypeError, ValueError, RecursionError, OverflowError):
        # Sets, dates, NaN, keys and values JSON cannot hold, cycles: to_json converts them or names where they are.
        text = None
    if text is not None and len(text) <= _SHALLOW_ENOUGH:
        return text
    return to_json(value, strict=True, what=f"The arguments of {label}()", root="args")
