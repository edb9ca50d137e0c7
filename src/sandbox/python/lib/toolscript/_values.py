"""How toolscript.analysis sees values: as JSON, as TypeScript's values.ts does.

Kinds, equality, ordering and the way a value is quoted in a message are
defined once here, the same way as in src/sandbox/analysis/values.ts.
"""

import json
import math
from decimal import Decimal

_MISSING = object()
_MAX_SHOWN = 60


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_record(value):
    return isinstance(value, dict)


def _is_array(value):
    return isinstance(value, (list, tuple))


def _kind(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if _is_number(value):
        return "number"
    if isinstance(value, str):
        return "string"
    if _is_array(value):
        return "array"
    if _is_record(value):
        return "object"
    return type(value).__name__


def _js_number(value):
    """A number as JavaScript's String(number) writes it, so messages read the same in both languages."""
    if isinstance(value, int):
        return str(value)
    if value != value or value in (math.inf, -math.inf):
        return "null"
    if value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    sign, digit_tuple, exponent = Decimal(repr(value)).as_tuple()
    digits = "".join(map(str, digit_tuple))
    point = exponent + len(digits)  # where the decimal point goes, counted from the first digit
    digits = digits.rstrip("0") or "0"
    if 0 < point <= 21:
        text = digits[:point] + "." + digits[point:]
    elif -6 < point <= 0:
        text = "0." + "0" * -point + digits
    else:
        power = point - 1
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        text = mantissa + ("e+" if power >= 0 else "e-") + str(abs(power))
    return ("-" if sign else "") + text


def _json(value):
    """JSON as JavaScript's JSON.stringify writes it (compact, numbers as JavaScript writes them)."""
    if value is None or value is _MISSING:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if _is_number(value):
        return _js_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if _is_array(value):
        return "[" + ",".join(_json(item) for item in value) + "]"
    if _is_record(value):
        return "{" + ",".join(json.dumps(str(key), ensure_ascii=False) + ":" + _json(item) for key, item in value.items()) + "}"
    return json.dumps(str(value), ensure_ascii=False)


def _show(value):
    text = _json(value)
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 1] + "…"


def _describe(value):
    kind = _kind(value)
    return kind if kind in ("array", "object", "null") else f"{kind} {_show(value)}"


def _equal(a, b):
    if _is_number(a) and _is_number(b):
        return a == b
    if _is_array(a):
        return _is_array(b) and len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if _is_record(a):
        return _is_record(b) and len(a) == len(b) and all(key in b and _equal(a[key], b[key]) for key in a)
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if a is None or b is None:
        return a is b
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    return False


def _compare(a, b):
    """-1, 0 or 1 for two numbers or two strings (by code point); None for any other pair."""
    if (_is_number(a) and _is_number(b)) or (isinstance(a, str) and isinstance(b, str)):
        return -1 if a < b else 1 if a > b else 0
    return None


def _canonical(value):
    if _is_number(value):
        return ("number", float(value))
    if _is_array(value):
        return ("array", tuple(_canonical(item) for item in value))
    if _is_record(value):
        return ("object", tuple(sorted((str(key), _canonical(item)) for key, item in value.items())))
    return (_kind(value), value)
