"""The `workspace` global: the session's files, over the host operations of src/sandbox/shared/host-operations.ts.

Text crosses as `{text}`, bytes as `{base64}`; failures raise WorkspaceError.
"""

import base64
from json import dumps as _dumps

from .host_calls import request


def _check_path(method, path):
    if not isinstance(path, str):
        raise TypeError(f"workspace.{method}(path): path must be a string, not {type(path).__name__}")


class Workspace:
    """`await workspace.read_file(path)`, `write_file(path, data)`, `list(path=None)`, `remove(path)`."""

    __slots__ = ("_host",)

    def __init__(self, host):
        self._host = host

    def __repr__(self):
        return "<workspace: read_file, write_file, list, remove>"

    async def _op(self, name, args):
        return await request(self._host, "op", name, _dumps(args))

    async def read_file(self, path, encoding="utf8"):
        """The file's text, or its bytes with encoding="bytes"."""
        _check_path("read_file", path)
        if encoding not in ("utf8", "bytes"):
            raise TypeError('workspace.read_file(path, encoding="utf8"): encoding must be "utf8" or "bytes"')
        value = await self._op("workspace.readFile", {"path": path, "encoding": encoding})
        if encoding == "bytes":
            return base64.b64decode(value["base64"])
        return value["text"]

    async def write_file(self, path, data):
        """Writes text (str) or bytes; returns {path, size, mtime}."""
        _check_path("write_file", path)
        if isinstance(data, str):
            payload = {"path": path, "text": data}
        elif isinstance(data, (bytes, bytearray, memoryview)):
            payload = {"path": path, "base64": base64.b64encode(bytes(data)).decode("ascii")}
        else:
            raise TypeError(
                f"workspace.write_file(path, data): data must be str or bytes, not {type(data).__name__}"
            )
        return await self._op("workspace.writeFile", payload)

    async def list(self, path=None):
        """[{path, size, mtime}] of the files whose path starts with `path` (all files without it)."""
        if path is not None:
            _check_path("list", path)
        return await self._op("workspace.list", {} if path is None else {"prefix": path})

    async def remove(self, path):
        _check_path("remove", path)
        await self._op("workspace.remove", {"path": path})
