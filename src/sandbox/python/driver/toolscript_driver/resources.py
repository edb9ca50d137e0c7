"""The `resources` and `prompts` globals: the upstream servers' resources and prompts,
over the host operations of src/sandbox/shared/host-operations.ts.

A blob crosses as base64 and reaches the program as `bytes` under "bytes"; text stays under "text".
Failures raise ToolError (unknown URI or server), PolicyError (a refused server) or LimitError.
"""

import base64
from json import dumps as _dumps

from .host_calls import request


def _check_server(what, server):
    if server is not None and not isinstance(server, str):
        raise TypeError(f"{what}: server must be a string, not {type(server).__name__}")


def _content(entry):
    content = {"uri": entry.get("uri", "")}
    if "mimeType" in entry:
        content["mimeType"] = entry["mimeType"]
    if isinstance(entry.get("blob"), str):
        content["bytes"] = base64.b64decode(entry["blob"])
    else:
        content["text"] = entry.get("text", "")
    return content


class Resources:
    """`await resources.read(uri, server=None)`, `list(server=None)`, `templates(server=None)`."""

    __slots__ = ("_host",)

    def __init__(self, host):
        self._host = host

    def __repr__(self):
        return "<resources: read, list, templates>"

    async def _op(self, name, args):
        return await request(self._host, "op", name, _dumps(args))

    async def read(self, uri, server=None):
        """The resource's contents: a dict with uri, mimeType, and text (str) or bytes, plus server and
        contents (every entry, when there are several). The server that returned or listed the URI is
        asked, else those whose templates match, else every server offering resources; `server` picks one."""
        if not isinstance(uri, str) or uri == "":
            raise TypeError("resources.read(uri, server=None): uri must be a non-empty string")
        _check_server("resources.read", server)
        args = {"uri": uri} if server is None else {"uri": uri, "server": server}
        value = await self._op("resources.read", args)
        contents = [_content(entry) for entry in value.get("contents", [])]
        first = contents[0] if contents else {"uri": uri, "text": ""}
        return {**first, "server": value.get("server"), "contents": contents}

    async def list(self, server=None):
        """[{server, uri, name, mimeType, ...}]: the resources of `server` (of every server without it)."""
        _check_server("resources.list", server)
        return await self._op("resources.list", {} if server is None else {"server": server})

    async def templates(self, server=None):
        """[{server, uriTemplate, name, ...}]: the resource templates of `server` (of every server without it)."""
        _check_server("resources.templates", server)
        return await self._op("resources.templates", {} if server is None else {"server": server})


class Prompts:
    """`await prompts.get(server, name, args=None, **kwargs)`, `list(server=None)`."""

    __slots__ = ("_host",)

    def __init__(self, host):
        self._host = host

    def __repr__(self):
        return "<prompts: get, list>"

    async def get(self, server, name, args=None, **kwargs):
        """{server, name, description, messages}: the prompt with its arguments (a dict, or keywords) filled in."""
        if not isinstance(server, str):
            raise TypeError("prompts.get(server, name, args=None): server must be a string")
        if not isinstance(name, str):
            raise TypeError("prompts.get(server, name, args=None): name must be a string")
        if args is not None and not isinstance(args, dict):
            raise TypeError(f"prompts.get: args must be a dict, not {type(args).__name__}")
        merged = {**(args or {}), **kwargs}
        return await request(
            self._host, "op", "prompts.get", _dumps({"server": server, "name": name, "args": merged})
        )

    async def list(self, server=None):
        """[{server, name, description, arguments}]: the prompts of `server` (of every server without it)."""
        _check_server("prompts.list", server)
        return await request(self._host, "op", "prompts.list", _dumps({} if server is None else {"server": server}))
