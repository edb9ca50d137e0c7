"""validate(rows, schema), as TypeScript's validate.ts."""

import re

from ._errors import AnalysisError
from ._paths import _at, _parse_path, _read_or_none, _check_keys
from ._values import _MISSING, _is_number, _is_record, _is_array, _kind, _js_number, _show, _describe, _equal

RULES = ("type", "required", "enum", "min", "max", "minLength", "maxLength", "pattern")
TYPES = ("string", "number", "integer", "boolean", "object", "array")


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
