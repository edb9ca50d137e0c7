"""The error classes agent code sees, and host failures rebuilt as them.

Host failures (tool, policy, validation, workspace, limit and busy) cross the
boundary as data (a HostReply) and are raised here as the class of that name,
so `except ToolError` works in the agent's program and in skill modules.
"""

# Captured at import: agent code that replaces json.loads only breaks its own run.
from json import loads as _loads

AGENT_FILE = "agent.py"
SKILL_FILE_PREFIX = "skills/"


class HostError(Exception):
    """A failure reported by the host: a message, a string `code` and JSON `data`."""

    # Shown as plain `ToolError: ...` in tracebacks, like the built-in names they are.
    __module__ = "builtins"

    def __init__(self, message="", code=None, data=None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.data = data


class ToolError(HostError):
    __module__ = "builtins"
    """A tool failed (the upstream server answered with an error)."""


class PolicyError(HostError):
    __module__ = "builtins"
    """A policy refused the call."""


class ValidationError(HostError):
    __module__ = "builtins"
    """The arguments did not match the tool's input schema."""


class WorkspaceError(HostError):
    __module__ = "builtins"
    """A workspace operation failed (missing file, bad path, quota)."""


class LimitError(HostError):
    __module__ = "builtins"
    """A limit of the execution was reached (tool calls, result bytes, output size)."""


class BusyError(HostError):
    __module__ = "builtins"
    """The upstream server is busy (its concurrency cap is reached)."""


# Same names, same order as src/sandbox/shared/globals/errors.ts (SANDBOX_ERROR_NAMES).
ERROR_CLASSES = {
    cls.__name__: cls
    for cls in (ToolError, PolicyError, ValidationError, WorkspaceError, LimitError, BusyError)
}

# JavaScript error names the host may send that have a Python equivalent.
_BUILTIN_EQUIVALENTS = {
    "TypeError": TypeError,
    "RangeError": ValueError,
    "SyntaxError": ValueError,
}


def error_from_reply(error):
    """The exception for the `error` object of a failed HostReply (a dict from JSON)."""
    if not isinstance(error, dict):
        return RuntimeError("The host sent a malformed error")
    name = error.get("name") if isinstance(error.get("name"), str) else "Error"
    message = error.get("message") if isinstance(error.get("message"), str) else ""
    code = error.get("code") if isinstance(error.get("code"), str) else None
    data = None
    data_json = error.get("dataJson")
    if isinstance(data_json, str):
        try:
            data = _loads(data_json)
        except ValueError:
            data = None
    cls = ERROR_CLASSES.get(name)
    if cls is not None:
        return cls(message, code=code, data=data)
    builtin = _BUILTIN_EQUIVALENTS.get(name)
    # Other host errors (Error, SkillError, AbortError, ...) keep their name in the message.
    exc = builtin(message) if builtin is not None else RuntimeError(
        message if name == "Error" else name + ": " + message
    )
    exc.code = code
    exc.data = data
    return exc

