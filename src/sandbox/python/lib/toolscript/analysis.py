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

from ._errors import AnalysisError
from ._paths import _at, _field_at, _parse_path, _read, _read_or_none, _check_rows, _check_keys, _check_unique
from ._validate import RULES, TYPES, validate
from ._values import _MISSING, _is_number, _is_record, _is_array, _kind, _show, _describe, _equal, _compare, _canonical

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
