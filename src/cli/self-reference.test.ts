import assert from "node:assert/strict";
import { test } from "node:test";
import type { ServerConfig } from "../config/servers.ts";
import { isThisGateway } from "./self-reference.ts";

const stdio = (command: string, args: string[]): ServerConfig => ({
  kind: "stdio",
  name: "x",
  command,
  args,
  env: {},
  disabled: false,
});

test("an entry running toolscript serve on the same config is this gateway", () => {
  const file = "/project/.mcp.json";
  assert.equal(isThisGateway(stdio("npx", ["toolscript", "serve"]), file, "/project"), true);
  assert.equal(isThisGateway(stdio("npx", ["-y", "toolscript@0.1.0", "serve"]), file, "/project"), true);
  assert.equal(isThisGateway(stdio("toolscript", ["serve"]), file, "/project"), true);
  assert.equal(
    isThisGateway(stdio("node", ["/opt/toolscript/bin/toolscript.js", "serve"]), file, "/project"),
    true,
  );
  assert.equal(
    isThisGateway(stdio("npx", ["toolscript", "serve", "--config", ".mcp.json"]), file, "/project"),
    true,
  );
  assert.equal(
    isThisGateway(stdio("npx", ["toolscript", "serve", "--config=/project/.mcp.json"]), file, "/project"),
    true,
  );
});

test("other servers, and a gateway on another config, are not", () => {
  const file = "/project/.mcp.json";
  assert.equal(
    isThisGateway(stdio("npx", ["toolscript", "serve", "--config", "other.json"]), file, "/project"),
    false,
  );
  assert.equal(
    isThisGateway(stdio("npx", ["-y", "@modelcontextprotocol/server-memory"]), file, "/project"),
    false,
  );
  assert.equal(isThisGateway(stdio("npx", ["toolscript", "run", "x.ts"]), file, "/project"), false);
  assert.equal(isThisGateway(stdio("node", ["serve.js", "toolscripts"]), file, "/project"), false);
  const http: ServerConfig = {
    kind: "http",
    name: "h",
    url: "http://127.0.0.1/",
    headers: {},
    transport: "auto",
    disabled: false,
  };
  assert.equal(isThisGateway(http, file, "/project"), false);
});
