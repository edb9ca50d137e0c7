#!/usr/bin/env node
// A small MCP server for tests, speaking the real protocol over stdio.
// Flags: --page-size N (paginate tools/list), --hang-list (never answer tools/list),
// --exit-at-once CODE (print to stderr and exit before the handshake), --init-delay MS,
// --hang-init (read stdin, never answer initialize), --exit-on-probe / --ignore-probe (exit on, or
// never answer, any request before `initialize`, such as a 2026-07-28 client's `server/discover`).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const value = (name) => {
  const index = argv.indexOf(name);
  return index === -1 ? undefined : argv[index + 1];
};

if (flag("--exit-at-once")) {
  console.error("scripted-server: fatal: missing API key SCRIPTED_KEY");
  process.exit(Number(value("--exit-at-once") ?? 1));
}

if (flag("--hang-init")) {
  // Reads requests and never answers; lives until its stdin closes, like a server stuck logging in.
  process.stdin.resume();
  process.stdin.on("end", () => process.exit(0));
} else {
  await serve();
}

async function serve() {
  const pageSize = Number(value("--page-size") ?? 0);
  const cancelled = [];
  const tools = [
    {
      name: "echo",
      description: "Echo the message back.",
      inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    },
    {
      name: "add",
      description: "Add two numbers and return structured content.",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
    },
    { name: "fail", description: "Always fails with isError.", inputSchema: { type: "object" } },
    { name: "crash", description: "Kills the server process mid-call.", inputSchema: { type: "object" } },
    {
      name: "slow",
      description: "Waits ms milliseconds, honouring cancellation.",
      inputSchema: { type: "object", properties: { ms: { type: "number" } }, required: ["ms"] },
    },
    {
      name: "cancelled_calls",
      description: "Lists request ids that were cancelled.",
      inputSchema: { type: "object" },
    },
    {
      name: "add_tool",
      description: "Adds a tool named by `name` and sends notifications/tools/list_changed.",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
    { name: "pid", description: "Returns the server's process id.", inputSchema: { type: "object" } },
    {
      name: "call_log",
      description: "Lists the tools called so far, in order.",
      inputSchema: { type: "object" },
    },
    {
      name: "rows",
      description: "Returns `count` generated rows as a JSON array (about 100 bytes each).",
      inputSchema: { type: "object", properties: { count: { type: "number" } }, required: ["count"] },
    },
    {
      name: "huge_log",
      description: "Sends a log notification of `bytes` characters, then answers.",
      inputSchema: { type: "object", properties: { bytes: { type: "number" } }, required: ["bytes"] },
    },
    {
      name: "env",
      description: "Returns the value of an environment variable.",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
    {
      name: "meta",
      description: "Returns the request's _meta (e.g. the traceparent the gateway passed on).",
      inputSchema: { type: "object" },
    },
  ];

  const server = new Server(
    { name: "scripted", version: "1.0.0" },
    { capabilities: { tools: { listChanged: true }, logging: {} } },
  );

  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    if (flag("--hang-list")) return new Promise(() => {});
    if (!pageSize) return { tools };
    const start = Number(request.params?.cursor ?? 0);
    const next = start + pageSize;
    return { tools: tools.slice(start, next), ...(next < tools.length && { nextCursor: String(next) }) };
  });

  const text = (value) => ({
    content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }],
  });

  const callLog = [];
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = request.params.arguments ?? {};
    callLog.push(request.params.name);
    switch (request.params.name) {
      case "echo":
        return text(String(args.message));
      case "add":
        return { ...text(`${args.a + args.b}`), structuredContent: { sum: args.a + args.b } };
      case "fail":
        return { ...text("this tool always fails"), isError: true };
      case "crash":
        console.error("scripted-server: crashing on purpose");
        process.exit(7);
        break;
      case "slow":
        return new Promise((resolve) => {
          const timer = setTimeout(() => resolve(text(`waited ${args.ms}`)), args.ms);
          extra.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            cancelled.push(String(extra.requestId));
          });
        });
      case "cancelled_calls":
        return text(cancelled);
      case "add_tool":
        tools.push({
          name: String(args.name),
          description: "Added at run time.",
          inputSchema: { type: "object" },
        });
        await server.sendToolListChanged();
        return text("added");
      case "rows":
        return text(
          Array.from({ length: args.count }, (_, id) => ({
            id,
            name: `row-${id}`,
            region: ["north", "south", "east", "west"][id % 4],
            amount: (id * 7919) % 1000,
            note: "x".repeat(30),
          })),
        );
      case "call_log":
        return text(callLog);
      case "pid":
        return text(String(process.pid));
      case "huge_log":
        await server.notification({
          method: "notifications/message",
          params: { level: "info", data: "x".repeat(args.bytes) },
        });
        return text("logged");
      case "env":
        return text(process.env[String(args.name)] ?? "(unset)");
      case "meta": {
        const meta = request.params._meta ?? {};
        return { ...text(meta), structuredContent: meta };
      }
      default:
        return { ...text(`unknown tool ${request.params.name}`), isError: true };
    }
  });

  // --init-delay MS: answer initialize only after MS, like a server that loads data or logs in first.
  const initDelay = Number(value("--init-delay") ?? 0);
  if (initDelay) await new Promise((resolve) => setTimeout(resolve, initDelay));
  const transport = new StdioServerTransport();
  await server.connect(transport);
  if (flag("--exit-on-probe") || flag("--ignore-probe")) {
    const handle = transport.onmessage;
    let initialized = false;
    transport.onmessage = (message, extra) => {
      if (message.method === "initialize") initialized = true;
      else if (!initialized && "id" in message) {
        if (flag("--exit-on-probe")) process.exit(3);
        return;
      }
      handle?.(message, extra);
    };
  }
}
