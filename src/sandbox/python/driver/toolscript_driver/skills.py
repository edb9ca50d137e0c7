"""`from skills.<name> import f`: the run's saved Python skills, served from sources handed to `run`.

Imports are synchronous, so the sources are passed in up front (name ->
source). Each skill runs once per run as module `skills.<name>`, compiled as
`skills/<name>.py` (its frames stay in trimmed tracebacks), with the run's
`tools`, `search_tools`, `workspace`, `resources`, `prompts` and `context` as module globals.
"""

import linecache
import sys
from importlib.machinery import ModuleSpec

from .errors import SKILL_FILE_PREFIX
from .host_reply import is_absent

PACKAGE = "skills"
_PREFIX = PACKAGE + "."


def skill_sources(skills):
    """`skills` (name or `skills.<name>` -> source) checked and keyed by bare name."""
    if is_absent(skills):
        return {}
    if not isinstance(skills, dict) and callable(getattr(skills, "to_py", None)):
        # A JS object handed over by Pyodide (a JsProxy): converted once, here.
        skills = skills.to_py()
    if not isinstance(skills, dict):
        raise TypeError("skills must be a dict of skill name -> Python source")
    sources = {}
    for key, source in skills.items():
        if not isinstance(key, str) or not isinstance(source, str):
            raise TypeError("skills must be a dict of skill name -> Python source")
        name = key[len(_PREFIX) :] if key.startswith(_PREFIX) else key
        sources[name] = source
    return sources


def skill_file(name):
    return f"{SKILL_FILE_PREFIX}{name}.py"


def _missing(fullname, names):
    if names:
        message = f"No skill named {fullname!r}. Saved Python skills: {', '.join(sorted(names))}."
    else:
        message = f'No skill named {fullname!r}: no Python skills are saved (save_skill with language "python").'
    return ModuleNotFoundError(message, name=fullname)


class SkillFinder:
    """A `sys.meta_path` finder and loader for the package `skills` and its modules."""

    def __init__(self, sources, module_globals):
        self._sources = sources
        self._globals = module_globals

    def find_spec(self, fullname, path=None, target=None):
        if fullname == PACKAGE:
            return ModuleSpec(PACKAGE, self, is_package=True)
        if not fullname.startswith(_PREFIX):
            return None
        name = fullname[len(_PREFIX) :]
        if name not in self._sources:
            raise _missing(fullname, list(self._sources))
        return ModuleSpec(fullname, self, origin=skill_file(name))

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        if module.__name__ == PACKAGE:
            module.__path__ = []
            return
        name = module.__name__[len(_PREFIX) :]
        source = self._sources[name]
        filename = skill_file(name)
        module.__file__ = filename
        module.__dict__.update(self._globals)
        code = compile(source, filename, "exec", dont_inherit=True)
        exec(code, module.__dict__)  # noqa: S102 - the skill's own code, inside the sandbox

    def register_sources(self):
        """Puts the skills' lines in linecache, for tracebacks."""
        for name, source in self._sources.items():
            filename = skill_file(name)
            linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def drop_skill_modules():
    """Removes `skills` and `skills.*` from sys.modules (a run's skills are never seen by another)."""
    for key in [key for key in sys.modules if key == PACKAGE or key.startswith(_PREFIX)]:
        del sys.modules[key]
