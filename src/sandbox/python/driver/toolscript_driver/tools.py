"""The `tools` global and `search_tools`: one async function per tool of the run.

`tools.<server>.<tool>(a=1)` by sandbox names, `tools["<server>"]["<tool>"]` by
sandbox or original names. An unknown name raises AttributeError (attribute)
or KeyError (subscript) with the closest names. Arguments leave as JSON text;
results come back as the host already shaped them (structured content or
parsed JSON as dict/list, else str), parsed with json.loads.
"""

from .host_calls import request
from .results import arguments_json

_MAX_LISTED = 20


def _unknown(what, label, name, candidates):
    import difflib  # only on this error path: keeps the driver's import light

    matches = difflib.get_close_matches(name, candidates, n=3, cutoff=0.6)
    if matches:
        hint = " Did you mean: " + ", ".join(matches) + "?"
    else:
        listed = ", ".join(candidates[:_MAX_LISTED]) + (", ..." if len(candidates) > _MAX_LISTED else "")
        hint = " Known: " + listed + "."
    return f"Unknown {what} {label}.{hint} Use search_tools() to find tools."


class _ReadOnly:
    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(f"{self!r} is read-only")

    def __delattr__(self, name):
        raise AttributeError(f"{self!r} is read-only")


class ToolFunction(_ReadOnly):
    """One tool: `await tool(a=1, b=2)` or `await tool({"a": 1, "b": 2})`."""

    __slots__ = ("_host", "_server", "_tool", "_label")

    def __init__(self, host, server, tool, label):
        object.__setattr__(self, "_host", host)
        object.__setattr__(self, "_server", server)
        object.__setattr__(self, "_tool", tool)
        object.__setattr__(self, "_label", label)

    @property
    def __name__(self):
        return self._label

    def __repr__(self):
        return f"<tool {self._label}>"

    def _arguments(self, args, kwargs):
        label = self._label
        if args and kwargs:
            raise TypeError(f"{label}() takes keyword arguments or one dict, not both")
        if len(args) > 1:
            raise TypeError(f"{label}() takes keyword arguments or one dict, not {len(args)} positional arguments")
        if args and not isinstance(args[0], dict):
            raise TypeError(f"{label}() takes keyword arguments or one dict, not a {type(args[0]).__name__}")
        return arguments_json(args[0] if args else kwargs, label)

    async def __call__(self, *args, **kwargs):
        json_text = self._arguments(args, kwargs)
        return await request(self._host, "call", self._server, self._tool, json_text)


class Tools(_ReadOnly):
    """Names to values by attribute and by subscript; `dir()` and iteration list the sandbox names."""

    __slots__ = ("_label", "_what", "_values", "_names")

    def __init__(self, label, what, values, names):
        object.__setattr__(self, "_label", label)
        object.__setattr__(self, "_what", what)
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "_names", names)

    def _message(self, name):
        # Sandbox names first; an original name only when it is not the same value again.
        candidates = list(self._names)
        values = [self._values[key] for key in candidates]
        for key, value in self._values.items():
            if not any(value is known for known in values):
                candidates.append(key)
                values.append(value)
        return _unknown(self._what, f"{self._label}.{name}", str(name), candidates)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        raise AttributeError(self._message(name))

    def __getitem__(self, name):
        if isinstance(name, str) and name in self._values:
            return self._values[name]
        raise KeyError(self._message(name))

    def __contains__(self, name):
        return name in self._values

    def __iter__(self):
        return iter(self._names)

    def __len__(self):
        return len(self._names)

    def __dir__(self):
        return list(self._names)

    def __repr__(self):
        return f"<{self._label}: {', '.join(self._names)}>"


def build_tools(host, namespace):
    """The `tools` object for a ToolNamespace (sandbox server -> {server, tools: sandbox tool -> upstream tool})."""
    servers = {}
    server_ids = list(namespace)
    for server_id in server_ids:
        entry = namespace[server_id]
        upstream = entry["server"]
        tool_ids = list(entry["tools"])
        functions = {}
        for tool_id in tool_ids:
            functions[tool_id] = ToolFunction(
                host, upstream, entry["tools"][tool_id], f"tools.{server_id}.{tool_id}"
            )
        for tool_id in tool_ids:
            functions.setdefault(entry["tools"][tool_id], functions[tool_id])
        servers[server_id] = Tools(f"tools.{server_id}", "tool", functions, tool_ids)
    for server_id in server_ids:
        servers.setdefault(namespace[server_id]["server"], servers[server_id])
    return Tools("tools", "server", servers, server_ids)


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def make_search_tools(host):
    """`await search_tools(query, limit=5, min_score=None)`: the catalog's best matches for `query`."""
    async def search_tools(query, limit=5, min_score=None):
        if not isinstance(query, str):
            raise TypeError("search_tools(query, limit=5, min_score=None): query must be a string")
        if limit is not None and not _is_number(limit):
            raise TypeError("search_tools: limit must be a number")
        if min_score is not None and not _is_number(min_score):
            raise TypeError("search_tools: min_score must be a number")
        return await request(host, "search", query, limit, min_score)

    return search_tools
