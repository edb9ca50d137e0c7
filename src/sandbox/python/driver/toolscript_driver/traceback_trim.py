"""Tracebacks in the agent's own terms: only frames of its program and its skills.

The program is compiled as `agent.py`, skills as `skills/<name>.py`; their
sources are in `linecache` for the run, so frames show the agent's lines.
Frames of the driver, of asyncio and of importlib are left out.
"""

import traceback

from .errors import AGENT_FILE, SKILL_FILE_PREFIX

# Causes and contexts shown before the error itself, at most.
_MAX_CHAIN = 4
_CAUSE = "\nThe above exception was the direct cause of the following exception:\n\n"
_CONTEXT = "\nDuring handling of the above exception, another exception occurred:\n\n"


def is_agent_file(filename):
    return filename == AGENT_FILE or filename.startswith(SKILL_FILE_PREFIX)


def agent_frames(exc):
    """The frames of `exc`'s traceback that run the agent's program or its skills, outermost first."""
    frames = traceback.extract_tb(exc.__traceback__)
    return traceback.StackSummary.from_list([frame for frame in frames if is_agent_file(frame.filename)])


def _only(exc):
    try:
        return traceback.format_exception_only(type(exc), exc)
    except Exception:  # noqa: BLE001 - a broken __str__ still leaves the name
        return [f"{type(exc).__name__}: <message could not be read>\n"]


def _one(exc):
    frames = agent_frames(exc)
    head = ["Traceback (most recent call last):\n", *frames.format()] if frames else []
    return head + _only(exc)


def _chain(exc, depth, seen):
    seen.add(id(exc))
    lines = []
    cause = exc.__cause__
    context = exc.__context__
    if depth < _MAX_CHAIN:
        if cause is not None and id(cause) not in seen:
            lines = _chain(cause, depth + 1, seen) + [_CAUSE]
        elif context is not None and not exc.__suppress_context__ and id(context) not in seen:
            lines = _chain(context, depth + 1, seen) + [_CONTEXT]
    return lines + _one(exc)


def agent_stack(exc):
    """The traceback of `exc` (and its causes), trimmed to the agent's frames."""
    return "".join(_chain(exc, 0, set())).rstrip("\n")


def agent_position(exc):
    """(line, column) of the innermost agent frame, 1-based; (None, None) when no agent code is on the stack."""
    frames = agent_frames(exc)
    if not frames:
        return None, None
    frame = frames[-1]
    column = getattr(frame, "colno", None)
    return frame.lineno, None if column is None else column + 1


def syntax_position(exc):
    """(line, column) of a SyntaxError in the agent's source, 1-based."""
    line = exc.lineno if isinstance(exc.lineno, int) else None
    column = exc.offset if isinstance(exc.offset, int) and exc.offset > 0 else None
    return line, column


def syntax_stack(exc):
    """`File "agent.py", line N`, the offending text with a caret, and the message."""
    return "".join(_only(exc)).rstrip("\n")
