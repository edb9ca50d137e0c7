"""ToolScript's Python driver: runs one agent program inside Pyodide (issue #16).

`await toolscript_driver.run(code, context_json, tools_json, limits_json, host, skills=None)`
returns the outcome as JSON text; see run.py for the contract.
"""

from .errors import BusyError, LimitError, PolicyError, ToolError, ValidationError, WorkspaceError
from .run import run

__all__ = ["run", "ToolError", "PolicyError", "ValidationError", "WorkspaceError", "LimitError", "BusyError"]
