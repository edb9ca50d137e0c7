"""The entry point pyrt calls once per execution, inside Pyodide.

    await run(code, context_json, tools_json, limits_json, host, skills=None) -> str

`host` offers `send(kind, a, b, c) -> id` (synchronous: "call" server, tool,
args_json; "search" query, limit, min_score; "op" name, args_json) and
`log(level, message)`; the HostReply to request `id`, as JSON text, comes back
through `deliver(id, reply_json)` (host_calls.py). The answer is JSON text:
`{"result": value}` (no key when the value is None) or `{"error": ExecutionError}`.
"""

import asyncio
import builtins
import io
import keyword
import sys
import types
from asyncio import CancelledError
from json import dumps as _dumps
from json import loads as _loads

from .errors import ERROR_CLASSES
from .host_reply import is_absent
from .interpreter_state import InterpreterState
from . import host_calls, nested_loop, ready_queue
from .logs import LogBudget, LogStream
from .program import LAST_VALUE, compile_program, register_source
from .report import error_report, output_limit_report, syntax_report
from .results import OutputTooLarge, to_json
from .skills import SkillFinder, skill_sources
from .tools import build_tools, make_search_tools
from .resources import Prompts, Resources
from .workspace import Workspace

# When limits_json leaves it out: the gateway's default (src/config/settings.ts DEFAULT_MAX_LOG_BYTES is larger).
DEFAULT_MAX_LOG_BYTES = 64 * 1024
# Names the driver defines: a context key of that name stays only in `context`.
RESERVED_NAMES = frozenset(
    ["tools", "search_tools", "workspace", "resources", "prompts", "context", "result", LAST_VALUE, *ERROR_CLASSES]
)


def _limits(limits_json):
    limits = {} if is_absent(limits_json) else _loads(str(limits_json))
    if not isinstance(limits, dict):
        limits = {}
    max_log = limits.get("maxLogBytes")
    max_output = limits.get("maxOutputBytes")
    number = (int, float)
    return (
        int(max_log) if isinstance(max_log, number) else DEFAULT_MAX_LOG_BYTES,
        int(max_output) if isinstance(max_output, number) else None,
    )


def context_variables(context):
    """The top-level keys of `context` that become variables: identifiers, not keywords, not dunders, not ours."""
    if not isinstance(context, dict):
        return {}
    return {
        key: value
        for key, value in context.items()
        if isinstance(key, str)
        and key.isidentifier()
        and not keyword.iskeyword(key)
        and not key.startswith("__")
        and key not in RESERVED_NAMES
    }


def _outcome_text(outcome):
    return _dumps(outcome, ensure_ascii=False, allow_nan=False)


async def _execute(code, context, tools_namespace, max_output, host, sources, streams):
    try:
        program = compile_program(code)
    except (SyntaxError, ValueError) as exc:
        return _outcome_text({"error": syntax_report(exc)})
    register_source(code)
    shared = {
        "tools": build_tools(host, tools_namespace),
        "search_tools": make_search_tools(host),
        "workspace": Workspace(host),
        "resources": Resources(host),
        "prompts": Prompts(host),
        "context": context,
    }
    namespace = {"__name__": "__main__", "__builtins__": builtins, **context_variables(context), **shared}
    for name, cls in ERROR_CLASSES.items():
        setattr(builtins, name, cls)
    finder = SkillFinder(sources, shared)
    finder.register_sources()
    sys.meta_path.insert(0, finder)
    try:
        value = eval(program, namespace)  # noqa: S307 - the agent's program, inside the sandbox
        if isinstance(value, types.CoroutineType):
            await value
        value = namespace["result"] if "result" in namespace else namespace.get(LAST_VALUE)
        if isinstance(value, types.CoroutineType):
            # `main()` or a tool call left un-awaited as the last expression: what was meant is its value.
            value = await value
        # Logs first, so they are all out before a result is measured.
        for stream in streams:
            stream.flush()
        if value is None:
            return "{}"
        return '{"result":' + to_json(value, max_bytes=max_output) + "}"
    except (KeyboardInterrupt, CancelledError):
        # The host's interrupt (timeout) or cancellation: not the program's error to report.
        raise
    except OutputTooLarge as exc:
        return _outcome_text({"error": output_limit_report(exc)})
    except BaseException as exc:  # noqa: BLE001 - SystemExit and MemoryError are reported too
        return _report_text(exc)


def _report_text(exc):
    try:
        return _outcome_text({"error": error_report(exc)})
    except Exception:  # noqa: BLE001 - e.g. out of memory again while formatting the traceback
        kind = "memory" if isinstance(exc, MemoryError) else "runtime"
        return _dumps({"error": {"kind": kind, "name": str(type(exc).__name__), "message": ""}})


async def run(code, context_json, tools_json, limits_json, host, skills=None):
    """Runs one agent program; returns the outcome as JSON text (see the module docstring)."""
    max_log, max_output = _limits(limits_json)
    context = {} if is_absent(context_json) else _loads(str(context_json))
    tools_namespace = _loads(str(tools_json))
    sources = skill_sources(skills)
    saved = InterpreterState()
    budget = LogBudget(host.log, max_log)
    stdout = LogStream(budget, "log")
    stderr = LogStream(budget, "error")
    try:
        sys.stdout, sys.stderr, sys.stdin = stdout, stderr, io.StringIO("")
        nested_loop.install()
        ready_queue.install(asyncio.get_running_loop())
        return await _execute(str(code), context, tools_namespace, max_output, host, sources, (stdout, stderr))
    finally:
        try:
            stdout.flush()
            stderr.flush()
        finally:
            nested_loop.uninstall()
            ready_queue.uninstall()
            host_calls.forget_all()
            saved.restore()
