"""Runs toolscript_driver.run with a fake host, for src/sandbox/python/driver.test.ts (not shipped).

Reads one JSON spec on stdin: {"tools": {"server/tool": behaviour}, "runs": [{code, context?, namespace,
limits?, skills?}]}; behaviour is {"sum": true} (returns a + b), {"echo": true} (returns the arguments) or
{"reply": HostReply}. Prints one JSON line per run: {"outcome", "logs", "calls", "isString"}.
"""

import asyncio
import json
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0] + "/driver")

from toolscript_driver import deliver, run  # noqa: E402


class FakeHost:
    """The runner's side of the driver's contract: `send` answers through `deliver`, later, as the runner does."""

    def __init__(self, behaviours, files):
        self.behaviours = behaviours
        self.files = files
        self.logs = []
        self.calls = []
        self.next_id = 1

    def send(self, kind, a, b, c):
        call_id = self.next_id
        self.next_id += 1
        if kind == "call":
            reply = self.call(a, b, c)
        elif kind == "search":
            reply = self.search(a, b, c)
        elif kind == "op":
            reply = self.op(a, b)
        else:
            reply = json.dumps({"ok": False, "error": {"name": "TypeError", "message": f"Unknown request {kind}"}})
        asyncio.get_running_loop().call_soon(deliver, call_id, reply)
        return call_id

    def call(self, server, tool, args_json):
        args = json.loads(args_json)
        self.calls.append({"server": server, "tool": tool, "args": args})
        behaviour = self.behaviours.get(f"{server}/{tool}")
        if behaviour is None:
            return json.dumps({"ok": False, "error": {"name": "TypeError", "message": f"Unknown tool {server}/{tool}"}})
        if "reply" in behaviour:
            return json.dumps(behaviour["reply"])
        value = args["a"] + args["b"] if behaviour.get("sum") else args
        return json.dumps({"ok": True, "json": json.dumps(value)})

    def search(self, query, limit, min_score):
        return json.dumps({"ok": True, "json": json.dumps([{"query": query, "limit": limit, "minScore": min_score}])})

    def op(self, name, args_json):
        args = json.loads(args_json)
        if name == "workspace.writeFile":
            self.files[args["path"]] = args.get("text", args.get("base64"))
            info = {"path": args["path"], "size": len(self.files[args["path"]]), "mtime": 1}
            return json.dumps({"ok": True, "json": json.dumps(info)})
        if name == "workspace.readFile":
            if args["path"] not in self.files:
                error = {"name": "WorkspaceError", "message": f"No file {args['path']}", "code": "workspace.not_found"}
                return json.dumps({"ok": False, "error": error})
            return json.dumps({"ok": True, "json": json.dumps({"text": self.files[args["path"]]})})
        if name == "workspace.list":
            prefix = args.get("prefix", "")
            listed = [{"path": path, "size": len(text), "mtime": 1} for path, text in self.files.items() if path.startswith(prefix)]
            return json.dumps({"ok": True, "json": json.dumps(listed)})
        return json.dumps({"ok": False, "error": {"name": "TypeError", "message": f"Unknown host operation {name}"}})

    def log(self, level, message):
        self.logs.append({"level": level, "message": message})


async def main():
    spec = json.load(sys.stdin)
    files = {}
    for entry in spec["runs"]:
        host = FakeHost(spec.get("tools", {}), files)
        context = entry.get("context")
        output = await run(
            entry["code"],
            None if context is None else json.dumps(context),
            json.dumps(entry.get("namespace", {})),
            json.dumps(entry.get("limits", {"maxLogBytes": 65536, "maxOutputBytes": 1048576})),
            host,
            skills=entry.get("skills"),
        )
        record = {"isString": isinstance(output, str), "outcome": json.loads(output), "logs": host.logs, "calls": host.calls}
        sys.__stdout__.write(json.dumps(record) + "\n")
        sys.__stdout__.flush()


asyncio.run(main())
