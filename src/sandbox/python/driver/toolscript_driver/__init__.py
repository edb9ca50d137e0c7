"""ToolScript's Python driver: runs one agent program inside Pyodide (issue #16).

`await toolscript_driver.run(code, context_json, tools_json, limits_json, host, skills=None)`
returns the outcome as JSON text; see run.py for the contract. The host's
replies come back through `deliver(id, reply_json)` (host_calls.py).
"""

from .errors import BusyError, LimitError, PolicyError, ToolError, ValidationError, WorkspaceError
from .host_calls import deliver
from .run import run

__all__ = ["run", "deliver", "ToolError", "PolicyError", "ValidationError", "WorkspaceError", "LimitError", "BusyError"]
