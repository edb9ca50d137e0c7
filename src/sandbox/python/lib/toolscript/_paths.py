"""Field paths and argument checks, as TypeScript's paths.ts: "price", "customer.address.city", "items.0.sku"."""

import json
import re

from ._errors import AnalysisError
from ._values import _MISSING, _describe, _is_array, _is_record

_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_INDEX = re.compile(r"0|[1-9][0-9]*")


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
