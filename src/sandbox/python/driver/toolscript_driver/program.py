"""The agent's program compiled for one run: top-level `await`, and its last expression kept.

The last statement, when it is an expression, becomes an assignment to a
hidden name, so the run can return it when the program assigns no `result`.
"""

import ast
import linecache

from .errors import AGENT_FILE

LAST_VALUE = "__toolscript_last__"
_FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT


def _keep_last_expression(tree):
    body = tree.body
    if not body or not isinstance(body[-1], ast.Expr):
        return
    last = body[-1]
    target = ast.copy_location(ast.Name(id=LAST_VALUE, ctx=ast.Store()), last)
    body[-1] = ast.copy_location(ast.Assign(targets=[target], value=last.value), last)


def compile_program(source):
    """The code object of `source` (SyntaxError with the agent's line and column when it does not parse)."""
    tree = compile(source, AGENT_FILE, "exec", flags=ast.PyCF_ONLY_AST | _FLAGS, dont_inherit=True)
    _keep_last_expression(tree)
    return compile(tree, AGENT_FILE, "exec", flags=_FLAGS, dont_inherit=True)


def register_source(source):
    """Puts the program's lines in linecache, for tracebacks (the agent's own included)."""
    linecache.cache[AGENT_FILE] = (len(source), None, source.splitlines(True), AGENT_FILE)
