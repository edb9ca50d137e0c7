"""What a run changes in the interpreter, saved before and put back after.

pyrt uses one interpreter per execution; this keeps `run` safe to call twice in
one anyway: streams, import machinery, builtins (agent code may replace
`print` or add names), linecache entries, logging handlers, warning filters and hooks come back
as they were, and the run's skill modules are dropped.
"""

import builtins
import linecache
import os
import sys
import warnings

from .skills import drop_skill_modules

_SYS_HOOKS = ("stdout", "stderr", "stdin", "displayhook", "excepthook", "unraisablehook", "breakpointhook")


class InterpreterState:
    """A snapshot of the interpreter-wide state a run may change; `restore()` puts it back."""

    def __init__(self):
        self._sys = {name: getattr(sys, name, None) for name in _SYS_HOOKS}
        self._path = list(sys.path)
        self._meta_path = list(sys.meta_path)
        self._builtins = dict(builtins.__dict__)
        self._linecache = set(linecache.cache)
        self._recursion_limit = sys.getrecursionlimit()
        self._trace = sys.gettrace()
        self._profile = sys.getprofile()
        self._cwd = _cwd()
        self._logging = _logging_state()
        self._warning_filters = list(warnings.filters)

    def restore(self):
        sys.settrace(self._trace)
        sys.setprofile(self._profile)
        current = builtins.__dict__
        for key in [key for key in current if key not in self._builtins]:
            del current[key]
        current.update(self._builtins)
        for name, value in self._sys.items():
            setattr(sys, name, value)
        sys.path[:] = self._path
        sys.meta_path[:] = self._meta_path
        drop_skill_modules()
        for key in [key for key in linecache.cache if key not in self._linecache]:
            del linecache.cache[key]
        sys.setrecursionlimit(self._recursion_limit)
        if self._cwd is not None and _cwd() != self._cwd:
            try:
                os.chdir(self._cwd)
            except OSError:
                pass
        _restore_logging(self._logging)
        warnings.filters[:] = self._warning_filters
        # Drops the caches of the filters replaced above (private, in CPython 3.11 to 3.14: guarded).
        mutated = getattr(warnings, "_filters_mutated", None)
        if callable(mutated):
            mutated()


def _cwd():
    try:
        return os.getcwd()
    except OSError:
        return None


def _logging_state():
    # Only when loaded: importing logging just to save it would slow every run.
    logging = sys.modules.get("logging")
    if logging is None:
        return None
    root = logging.root
    return (list(root.handlers), root.level, logging.root.manager.disable)


def _restore_logging(saved):
    logging = sys.modules.get("logging")
    if logging is None:
        return
    root = logging.root
    # A handler made during the run (basicConfig) holds the run's stream: removed.
    handlers, level, disable = saved if saved is not None else ([], logging.WARNING, 0)
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.disable(disable)
