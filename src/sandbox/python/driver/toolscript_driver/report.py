"""Exceptions as the ExecutionError shape of src/sandbox/types.ts, with the same kinds as TypeScript.

ToolError -> `tool`, PolicyError -> `policy`, MemoryError -> `memory`, a
program that does not compile -> `syntax`, everything else `runtime` (as in
src/sandbox/shared/prelude/describe-error.ts: ValidationError and LimitError
are `runtime` there too). Strings are cut to MAX_REPORT_CHARS, as there.
"""

from json import loads as _loads

from .errors import PolicyError, ToolError
from .results import OutputTooLarge, to_json
from .traceback_trim import agent_position, agent_stack, syntax_position, syntax_stack

# The same cap as src/sandbox/shared/prelude/constants.ts MAX_REPORT_CHARS.
MAX_REPORT_CHARS = 16 * 1024
MEMORY_MESSAGE = "Execution exceeded the memory limit"
_LOOP_HINT = " (the program already runs in an event loop: top-level `await main()` works here)"
_RETURN_HINT = " (a program ends with its last expression, or assign `result = ...`)"


def cap(text):
    if len(text) <= MAX_REPORT_CHARS:
        return text
    return f"{text[:MAX_REPORT_CHARS]}… ({len(text) - MAX_REPORT_CHARS} more characters)"


def _message(exc):
    try:
        # KeyError's str() is the repr of its argument: a message keeps its own words.
        if isinstance(exc, KeyError) and len(exc.args) == 1 and isinstance(exc.args[0], str):
            return exc.args[0]
        return str(exc)
    except Exception:  # noqa: BLE001 - a broken __str__ still leaves the name
        return "<message could not be read>"


def _kind(exc):
    if isinstance(exc, ToolError):
        return "tool"
    if isinstance(exc, PolicyError):
        return "policy"
    if isinstance(exc, MemoryError):
        return "memory"
    return "runtime"


def _data(value):
    # Data too large to report is left out; the message still explains the failure.
    try:
        return _loads(to_json(value, max_bytes=MAX_REPORT_CHARS))
    except (OutputTooLarge, TypeError, ValueError, RecursionError):
        return None


def _leaves(group):
    for inner in group.exceptions:
        if isinstance(inner, BaseExceptionGroup):
            yield from _leaves(inner)
        else:
            yield inner


def _group_report(group):
    """A TaskGroup's errors: the one error itself when there is one, else the group listing them."""
    leaves = list(_leaves(group))
    if len(leaves) == 1:
        report = error_report(leaves[0])
        outer = agent_stack(group)
        report["stack"] = cap(outer + "\n\n" + report.get("stack", ""))
        return report
    report = _single_report(group)
    listed = "; ".join(f"{type(leaf).__name__}: {_message(leaf)}" for leaf in leaves[:10])
    report["message"] = cap(f"{report['message']}: {listed}")
    return report


def error_report(exc):
    """The ExecutionError of an exception raised by the agent's program (or its skills)."""
    if isinstance(exc, BaseExceptionGroup):
        return _group_report(exc)
    return _single_report(exc)


def _single_report(exc):
    kind = _kind(exc)
    message = _message(exc)
    if isinstance(exc, RuntimeError) and "cannot be called from a running event loop" in message:
        message += _LOOP_HINT
    if isinstance(exc, SystemExit):
        message = f"sys.exit({exc.code!r}) was called: a program ends with its last expression or `result`"
    if kind == "memory" and message == "":
        message = MEMORY_MESSAGE
    report = {"kind": kind, "name": cap(type(exc).__name__), "message": cap(message)}
    try:
        line, column = agent_position(exc)
        stack = agent_stack(exc)
    except Exception:  # noqa: BLE001 - a report without a stack beats no report
        line, column, stack = None, None, None
    if line is not None:
        report["line"] = line
    if column is not None:
        report["column"] = column
    if stack:
        report["stack"] = cap(stack)
    code = None if isinstance(exc, SystemExit) else getattr(exc, "code", None)
    if isinstance(code, str):
        report["code"] = cap(code)
    data = getattr(exc, "data", None)
    if data is not None:
        data = _data(data)
        if data is not None:
            report["data"] = data
    return report


def syntax_report(exc):
    """The ExecutionError of a program that does not compile: kind `syntax`, its line, column and text."""
    if not isinstance(exc, SyntaxError):
        # compile() refuses null bytes with a ValueError on 3.11.
        return {"kind": "syntax", "name": "SyntaxError", "message": cap(_message(exc))}
    message = exc.msg if isinstance(exc.msg, str) else _message(exc)
    if message.startswith("'return' outside function"):
        message += _RETURN_HINT
    report = {"kind": "syntax", "name": type(exc).__name__, "message": cap(message)}
    line, column = syntax_position(exc)
    if line is not None:
        report["line"] = line
    if column is not None:
        report["column"] = column
    report["stack"] = cap(syntax_stack(exc))
    return report


def output_limit_report(error):
    """The error of a returned value over maxOutputBytes, as src/sandbox/isolate/run-outcome.ts words it."""
    return {
        "kind": "runtime",
        "name": "LimitError",
        "code": "limit.output_bytes",
        "message": (
            f"the returned value is at least {error.at_least} bytes of JSON, over the limit of "
            f"{error.limit} bytes (sandbox.maxOutputBytes): return a smaller value, e.g. aggregate or slice it"
        ),
        "data": {"limit": error.limit, "bytes": error.at_least},
    }
