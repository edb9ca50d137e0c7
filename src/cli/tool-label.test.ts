import assert from "node:assert/strict";
import { test } from "node:test";
import { Catalog } from "../catalog/catalog.ts";
import { toolLabel } from "./tool-label.ts";

test("a tool's label shows its upstream name beside the sandbox path when they differ", () => {
  const catalog = new Catalog(["everything", "my-server"]);
  catalog.setServerTools("everything", [
    { name: "get-sum", inputSchema: { type: "object" } },
    { name: "echo", inputSchema: { type: "object" } },
  ]);
  catalog.setServerTools("my-server", [
    { name: "get-sum", inputSchema: { type: "object" } },
    { name: "ping", inputSchema: { type: "object" } },
  ]);
  assert.deepEqual(catalog.tools().map(toolLabel), [
    "tools.everything.echo",
    "tools.everything.get_sum  (get-sum)",
    "tools.my_server.get_sum  (my-server/get-sum)",
    "tools.my_server.ping  (my-server/ping)",
  ]);
});
