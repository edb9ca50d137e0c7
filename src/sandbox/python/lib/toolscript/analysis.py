"""Filter, aggregate, transform and validate rows of JSON (lists of dicts).

The twin of TypeScript's ``toolscript/analysis`` (src/sandbox/analysis/): the
same functions, arguments, results and error messages for the same inputs,
checked against one shared table (src/sandbox/analysis/cases.json).

Values are seen as JSON: ``True`` is not ``1``, ``1`` equals ``1.0``, ``"10"`` is
not ``10``. A field is named by a path: ``"price"``, or dotted for nested
fields, ``"customer.address.city"``; a segment that is a whole number also
indexes a list (``"items.0.sku"``). A field a row lacks reads as ``None``.

    from toolscript.analysis import filter, aggregate, transform, validate

    big = filter(rows, [{"field": "price", "op": ">", "value": 10}])
    by_country = aggregate(rows, "customer.country",
                           {"n": {"op": "count"}, "avg": {"op": "mean", "field": "price"}})
    slim = transform(rows, ["id", "customer.name"], {"customer.name": "name"})
    report = validate(rows, {"price": {"type": "number", "required": True, "min": 0}})

Bad arguments raise ``AnalysisError`` (a ``ValueError``) whose message names
where the bad input is and what is wrong, e.g.
``conditions[1].op: unknown operator "~="; expected one of ==, !=, >, >=, <, <=, in, contains``.
"""

import json
import math
import re
from decimal import Decimal

__all__ = [
    "AnalysisError",
    "OPERATORS",
    "METRIC_OPS",
    "RULES",
    "TYPES",
    "filter",
    "aggregate",
    "transform",
    "validate",
]

OPERATORS = ("==", "!=", ">", ">=", "<", "<=", "in", "contains")
METRIC_OPS = ("count", "sum", "mean", "median", "min", "max", "stdev")
RULES = ("type", "required", "enum", "min", "max", "minLength", "maxLength", "pattern")
TYPES = ("string", "number", "integer", "boolean", "object", "array")


class AnalysisError(ValueError):
    """A bad argument: ``path`` says where (``metrics.total``), the message what is wrong there."""

    code = "analysis.invalid_input"

    def __init__(self, path, what):
        super().__init__(f"{path}: {what}")
        self.path = path
        self.data = {"path": path}


# --- values, as JSON ---------------------------------------------------------

_MISSING = object()
_MAX_SHOWN = 60
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_INDEX = re.compile(r"0|[1-9][0-9]*")


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


# --- paths ---------------------------------------------------------------------


def _at(base, key):
    if isinstance(key, int):
        return f"{base}[{key}]"
    return f"{base}.{key}" if _IDENTIFIER.fullmatch(key) else f"{base}[{json.dumps(key, ensure_ascii=False)}]"


def _field_at(row, path):
    where = _at("rows", row)
    for key in path[1]:
        where = _at(where, key)
    return where


def _parse_path(value, where):
    """A field path as (field as written, keys)."""
    if not isinstance(value, str):
        raise AnalysisError(where, f"expected a field name (dotted for nested fields), got {_describe(value)}")
    if value == "":
        raise AnalysisError(where, "expected a field name, got an empty string")
    keys = value.split(".")
    if "" in keys:
        raise AnalysisError(where, f"empty key in the field path {json.dumps(value, ensure_ascii=False)}")
    return (value, keys)


def _read(row, path):
    current = row
    for key in path[1]:
        if _is_record(current):
            if key not in current:
                return _MISSING
            current = current[key]
        elif _is_array(current) and _INDEX.fullmatch(key) and int(key) < len(current):
            current = current[int(key)]
        else:
            return _MISSING
    return current


def _read_or_none(row, path):
    value = _read(row, path)
    return None if value is _MISSING else value


def _check_rows(rows):
    if not _is_array(rows):
        raise AnalysisError("rows", f"expected an array of objects, got {_describe(rows)}")
    for index, row in enumerate(rows):
        if not _is_record(row):
            raise AnalysisError(_at("rows", index), f"expected an object, got {_describe(row)}")


def _check_keys(value, known, where, noun="key"):
    for key in value:
        if key not in known:
            raise AnalysisError(_at(where, str(key)), f"unknown {noun}; expected {', '.join(known)}")


def _check_unique(paths, where, what):
    seen = set()
    for index, path in enumerate(paths):
        if path[0] in seen:
            raise AnalysisError(_at(where, index), f"{json.dumps(path[0], ensure_ascii=False)} is {what}")
        seen.add(path[0])


# --- filter --------------------------------------------------------------------


def _check_condition(condition, where):
    if not _is_record(condition):
        raise AnalysisError(where, f"expected an object {{field, op, value}}, got {_describe(condition)}")
    _check_keys(condition, ("field", "op", "value"), where)
    for key in ("field", "op", "value"):
        if key not in condition:
            raise AnalysisError(_at(where, key), "is required")
    path = _parse_path(condition["field"], _at(where, "field"))
    op = condition["op"]
    if not isinstance(op, str) or op not in OPERATORS:
        raise AnalysisError(_at(where, "op"), f"unknown operator {_show(op)}; expected one of {', '.join(OPERATORS)}")
    value = condition["value"]
    if op == "in" and not _is_array(value):
        raise AnalysisError(_at(where, "value"), f'operator "in" needs an array, got {_describe(value)}')
    return (path, op, value)


def _passes(op, actual, value):
    if op == "==":
        return _equal(actual, value)
    if op == "!=":
        return not _equal(actual, value)
    if op == "in":
        return any(_equal(actual, item) for item in value)
    if op == "contains":
        if isinstance(actual, str):
            return isinstance(value, str) and value in actual
        return _is_array(actual) and any(_equal(item, value) for item in actual)
    order = _compare(actual, value)
    if order is None:
        return False
    if op == ">":
        return order > 0
    if op == ">=":
        return order >= 0
    if op == "<":
        return order < 0
    return order <= 0


def filter(rows, conditions, logic="and"):
    """The rows that pass every condition (``logic="and"``) or at least one (``"or"``).

    ``conditions`` is a list of ``{"field": path, "op": op, "value": v}`` with op one of
    ``== != > >= < <= in contains``. Rows keep their order and are the same dicts.
    A field a row lacks reads as None. ``> >= < <=`` compare two numbers or two
    strings (by code point); any other pair, None included, does not pass. ``==`` is
    JSON equality (``1 == 1.0``, ``True != 1``, ``"1" != 1``). ``in`` needs a list.
    ``contains``: a substring of a string field, or an element of a list field.
    No conditions: "and" keeps every row, "or" none.
    """
    _check_rows(rows)
    if not _is_array(conditions):
        raise AnalysisError("conditions", f"expected an array of {{field, op, value}}, got {_describe(conditions)}")
    checked = [_check_condition(condition, _at("conditions", index)) for index, condition in enumerate(conditions)]
    if logic not in ("and", "or") or not isinstance(logic, str):
        raise AnalysisError("logic", f'expected "and" or "or", got {_describe(logic)}')
    want_any = logic == "or"
    kept = []
    for row in rows:
        passed = not want_any
        for path, op, value in checked:
            if _passes(op, _read_or_none(row, path), value) == want_any:
                passed = want_any
                break
        if passed:
            kept.append(row)
    return kept


# --- aggregate -----------------------------------------------------------------


def _check_group_by(group_by):
    if group_by is None:
        return []
    if isinstance(group_by, str):
        return [_parse_path(group_by, "group_by")]
    if not _is_array(group_by):
        raise AnalysisError("group_by", f"expected a field name or an array of field names, got {_describe(group_by)}")
    paths = [_parse_path(field, _at("group_by", index)) for index, field in enumerate(group_by)]
    _check_unique(paths, "group_by", "named twice")
    return paths


def _check_metrics(metrics, groups):
    if metrics is None:
        return []
    if not _is_record(metrics):
        raise AnalysisError("metrics", f"expected an object of {{name: {{op, field}}}}, got {_describe(metrics)}")
    checked = []
    for name, metric in metrics.items():
        where = _at("metrics", name)
        if not _is_record(metric):
            raise AnalysisError(where, f"expected an object {{op, field}}, got {_describe(metric)}")
        _check_keys(metric, ("op", "field"), where)
        if "op" not in metric:
            raise AnalysisError(_at(where, "op"), "is required")
        op = metric["op"]
        if not isinstance(op, str) or op not in METRIC_OPS:
            raise AnalysisError(_at(where, "op"), f"unknown metric {_show(op)}; expected one of {', '.join(METRIC_OPS)}")
        path = None
        if metric.get("field") is not None:
            path = _parse_path(metric["field"], _at(where, "field"))
        elif op != "count":
            raise AnalysisError(_at(where, "field"), f'is required for "{op}"')
        if any(group[0] == name for group in groups):
            raise AnalysisError(where, "this name is also a group_by field")
        checked.append((name, op, path))
    return checked


def _values_of(name, op, path, indices, rows):
    where = _at("metrics", name)
    numeric = op not in ("min", "max", "count")
    values = []
    first = None
    for index in indices:
        value = _read(rows[index], path)
        if value is _MISSING or value is None:
            continue
        if numeric and not _is_number(value):
            raise AnalysisError(
                where,
                f"{_field_at(index, path)}: expected a number, got {_describe(value)} (null and missing values are skipped)",
            )
        if op in ("min", "max"):
            kind = _kind(value)
            if kind not in ("number", "string"):
                raise AnalysisError(where, f"{_field_at(index, path)}: expected a number or a string, got {_describe(value)}")
            if first is None:
                first = kind
            if kind != first:
                raise AnalysisError(
                    where, f"{_field_at(index, path)}: expected a {first} like the values before it, got {_describe(value)}"
                )
        values.append(value)
    return values


def _sum(values):
    # Left to right, as TypeScript adds: not math.fsum, so both languages give the same float.
    total = 0
    for value in values:
        total += value
    return total


def _compute(name, op, path, indices, rows):
    if path is None:
        return len(indices)
    values = _values_of(name, op, path, indices, rows)
    if op == "count":
        return len(values)
    if op == "sum":
        return _sum(values)
    if op == "mean":
        return _sum(values) / len(values) if values else None
    if op == "median":
        if not values:
            return None
        ordered = sorted(values)
        middle = len(ordered) // 2
        return ordered[middle] if len(ordered) % 2 == 1 else (ordered[middle - 1] + ordered[middle]) / 2
    if op == "stdev":
        if len(values) < 2:
            return None
        mean = _sum(values) / len(values)
        squares = 0
        for value in values:
            squares += (value - mean) * (value - mean)
        return math.sqrt(squares / (len(values) - 1))
    best = None
    sign = -1 if op == "min" else 1
    for value in values:
        if best is None or _compare(value, best) == sign:
            best = value
    return best


def aggregate(rows, group_by=None, metrics=None):
    """One dict per group, in the order groups are first seen.

    ``group_by``: a field path, a list of them, or None (or []) for one group of
    every row, returned even when there are no rows. ``metrics``:
    ``{name: {"op": op, "field": path}}`` with op one of count, sum, mean, median,
    min, max, stdev (``field`` optional for count: then only rows where it is
    present and not None count). Each result holds the group's fields (keyed by the
    path as written, None where missing) then each metric by its name.

    None and missing values are skipped by every metric but plain count; a value
    of the wrong kind (sum/mean/median/stdev need numbers, min/max numbers or
    strings, not both) raises AnalysisError naming its row. Empty: count and sum
    0, the others None. stdev is the sample standard deviation (n - 1), like
    statistics.stdev, None under two values. Sums add left to right.
    """
    _check_rows(rows)
    groups = _check_group_by(group_by)
    checked = _check_metrics(metrics, groups)
    by_key = {}
    if not groups:
        by_key[()] = ([], [])
    for index, row in enumerate(rows):
        keys = [_read_or_none(row, path) for path in groups]
        identity = tuple(_canonical(key) for key in keys)
        group = by_key.get(identity)
        if group is None:
            group = (keys, [])
            by_key[identity] = group
        group[1].append(index)
    out = []
    for keys, indices in by_key.values():
        result = {}
        for path, key in zip(groups, keys):
            result[path[0]] = key
        for name, op, path in checked:
            result[name] = _compute(name, op, path, indices, rows)
        out.append(result)
    return out


# --- transform -----------------------------------------------------------------


def _renamed(keys, names, where):
    out = [names.get(key, key) for key in keys]
    seen = set()
    for name in out:
        if name in seen:
            raise AnalysisError(where, f"two fields would be named {json.dumps(name, ensure_ascii=False)} (check rename)")
        seen.add(name)
    return out


def transform(rows, select=None, rename=None):
    """New dicts with only the ``select``-ed fields, then keys renamed by ``rename``.

    ``select``: a list of field paths, in the order wanted, each keyed by the path as
    written (None where a row lacks it); None keeps every top-level field.
    ``rename``: ``{old: new}``, old being a key of the output (with select, one of
    the selected paths). Values are not copied.
    """
    _check_rows(rows)
    selected = None
    if select is not None:
        if not _is_array(select):
            raise AnalysisError("select", f"expected an array of field names, got {_describe(select)}")
        selected = [_parse_path(field, _at("select", index)) for index, field in enumerate(select)]
        _check_unique(selected, "select", "selected twice")
    names = {}
    if rename is not None:
        if not _is_record(rename):
            raise AnalysisError("rename", f"expected an object of {{old name: new name}}, got {_describe(rename)}")
        for old, new in rename.items():
            if not isinstance(new, str) or new == "":
                raise AnalysisError(_at("rename", old), f"expected the new name (a non-empty string), got {_describe(new)}")
            if selected is not None and not any(path[0] == old for path in selected):
                raise AnalysisError(_at("rename", old), f"{json.dumps(old, ensure_ascii=False)} is not a selected field")
            names[old] = new
    if selected is not None:
        keys = _renamed([path[0] for path in selected], names, "rename")
        return [{key: _read_or_none(row, path) for key, path in zip(keys, selected)} for row in rows]
    out = []
    for index, row in enumerate(rows):
        keys = _renamed(list(row), names, _at("rows", index)) if names else list(row)
        out.append({key: row[old] for key, old in zip(keys, row)})
    return out


# --- validate ------------------------------------------------------------------


def _number_rule(rules, key, where, whole):
    if key not in rules:
        return None
    value = rules[key]
    if not _is_number(value) or (whole and (not float(value).is_integer() or value < 0)):
        wanted = "a non-negative integer" if whole else "a number"
        raise AnalysisError(_at(where, key), f"expected {wanted}, got {_describe(value)}")
    return value


def _check_types(value, where):
    if value is _MISSING:
        return None
    types = list(value) if _is_array(value) else [value]
    if not types:
        raise AnalysisError(where, "expected a type or a non-empty array of types")
    for kind in types:
        if not isinstance(kind, str) or kind not in TYPES:
            raise AnalysisError(where, f"unknown type {_show(kind)}; expected one of {', '.join(TYPES)}")
    return types


def _check_field(field, rules):
    where = _at("schema", field)
    path = _parse_path(field, where)
    if not _is_record(rules):
        raise AnalysisError(where, f'expected an object of rules like {{"type": "number"}}, got {_describe(rules)}')
    _check_keys(rules, RULES, where, "rule")
    if "required" in rules and not isinstance(rules["required"], bool):
        raise AnalysisError(_at(where, "required"), f"expected true or false, got {_describe(rules['required'])}")
    if "enum" in rules and not _is_array(rules["enum"]):
        raise AnalysisError(_at(where, "enum"), f"expected an array of allowed values, got {_describe(rules['enum'])}")
    pattern = None
    if "pattern" in rules:
        source = rules["pattern"]
        if not isinstance(source, str):
            raise AnalysisError(_at(where, "pattern"), f"expected a regular expression, got {_describe(source)}")
        try:
            pattern = (source, re.compile(source))
        except re.error as error:
            raise AnalysisError(_at(where, "pattern"), f"invalid regular expression {_show(source)}") from error
    return {
        "path": path,
        "types": _check_types(rules.get("type", _MISSING), _at(where, "type")),
        "required": rules.get("required") is True,
        "allowed": rules.get("enum"),
        "min": _number_rule(rules, "min", where, False),
        "max": _number_rule(rules, "max", where, False),
        "minLength": _number_rule(rules, "minLength", where, True),
        "maxLength": _number_rule(rules, "maxLength", where, True),
        "pattern": pattern,
    }


def _has_type(value, kind):
    if kind == "integer":
        return _is_number(value) and float(value).is_integer()
    return _kind(value) == kind


def _first_failure(field, value):
    if value is None:
        return ("required", "is required") if field["required"] else None
    types = field["types"]
    if types and not any(_has_type(value, kind) for kind in types):
        return ("type", f"expected {' or '.join(types)}, got {_describe(value)}")
    allowed = field["allowed"]
    if allowed is not None and not any(_equal(value, item) for item in allowed):
        return ("enum", f"expected one of {_show(allowed)}, got {_describe(value)}")
    for rule, sign in (("min", ">="), ("max", "<=")):
        bound = field[rule]
        if bound is None:
            continue
        if not _is_number(value):
            return (rule, f"expected a number, got {_describe(value)}")
        if (value < bound) if rule == "min" else (value > bound):
            return (rule, f"must be {sign} {_show(bound)}, got {_show(value)}")
    for rule, sign in (("minLength", ">="), ("maxLength", "<=")):
        bound = field[rule]
        if bound is None:
            continue
        if not isinstance(value, str) and not _is_array(value):
            return (rule, f"expected a string or an array, got {_describe(value)}")
        length = len(value)
        if (length < bound) if rule == "minLength" else (length > bound):
            return (rule, f"length must be {sign} {_js_number(bound)}, got {length}")
    if field["pattern"] is not None:
        source, regex = field["pattern"]
        if not isinstance(value, str):
            return ("pattern", f"expected a string, got {_describe(value)}")
        if regex.search(value) is None:
            return ("pattern", f"does not match the pattern {_show(source)}")
    return None


def validate(rows, schema):
    """Checks every row against ``schema`` and says what failed where.

    ``schema``: ``{field path: rules}``, rules being any of ``type`` (string,
    number, integer, boolean, object, array, or a list of them), ``required``
    (present and not None), ``enum`` (list of allowed values), ``min``/``max``
    (inclusive bounds of a number), ``minLength``/``maxLength`` (of a string, in
    code points, or a list), ``pattern`` (a regular expression searched in a
    string; use the syntax Python and JavaScript share). Every rule but
    ``required`` passes a None or missing value; min/max, the lengths and pattern
    fail a value of another kind.

    Returns ``{"valid", "checked", "invalidRows", "errors": [{"row", "field",
    "rule", "message", "value"}]}``: errors in row order, then schema order, one
    per field and row (its first failing rule); a row that is not a dict fails
    rule "type" with field None. Raises AnalysisError only for a bad schema.
    """
    if not _is_array(rows):
        raise AnalysisError("rows", f"expected an array of objects, got {_describe(rows)}")
    if not _is_record(schema):
        raise AnalysisError("schema", f"expected an object of {{field: rules}}, got {_describe(schema)}")
    fields = [_check_field(field, rules) for field, rules in schema.items()]
    errors = []
    invalid_rows = 0
    for index, row in enumerate(rows):
        before = len(errors)
        if not _is_record(row):
            errors.append(
                {"row": index, "field": None, "rule": "type", "message": f"expected an object, got {_describe(row)}", "value": row}
            )
        else:
            for field in fields:
                value = _read_or_none(row, field["path"])
                failure = _first_failure(field, value)
                if failure is not None:
                    errors.append(
                        {"row": index, "field": field["path"][0], "rule": failure[0], "message": failure[1], "value": value}
                    )
        if len(errors) > before:
            invalid_rows += 1
    return {"valid": not errors, "checked": len(rows), "invalidRows": invalid_rows, "errors": errors}
