/**
 * What each command says about itself: kept apart from the commands, so that
 * `toolscript --help` lists them without loading any (each one loads the
 * gateway, the SDK or the sandbox).
 */
export const COMMAND_META = {
  serve: {
    name: "serve",
    description: [
      "Run the gateway as an MCP server (stdio by default, Streamable HTTP with --http)",
      "",
      "Over HTTP clients send `Authorization: Bearer <token>`. The token comes from TOOLSCRIPT_HTTP_TOKEN",
      'or toolscript.server.http.token (one client, named "default"), or one per client in',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config syntax, shown as text.
      'toolscript.server.http.clients: { "<name>": "${VAR}" }. Each client\'s sessions, workspaces and',
      "PII vaults are its own (another client is told they are unknown); audit records name the client.",
      "Without any token --http refuses to start, unless bound to loopback (127.0.0.1, ::1, localhost)",
      "with toolscript.server.http.allowUnauthenticatedLoopback: true.",
      "toolscript.server.http.maxSessionsPerClient (default 64) caps a client's open sessions: at the cap",
      "its least recently used session without a call in progress is closed (429 when every one has one).",
      "",
    ].join("\n"),
  },
  run: { name: "run", description: "Run one program against the configured servers and print its output" },
  tools: { name: "tools", description: "Look at the tool catalog from a terminal" },
  skills: { name: "skills", description: "Manage saved skills" },
  audit: {
    name: "audit",
    description: "Read the audit log: executions, tool calls and anomaly alerts, newest first",
  },
  auth: { name: "auth", description: "OAuth logins to remote MCP servers: login, status, logout" },
  agent: {
    name: "agent",
    description: [
      "Do a task with a model in code mode: the model (toolscript.llm) gets the gateway's meta-tools",
      "",
      "Progress (each model turn and tool call, with its cost) goes to stderr, the answer to stdout,",
      "then a token and cost summary (cost with toolscript.llm.pricing). Ctrl-C cancels the model",
      "request and the program in flight; a second Ctrl-C quits at once.",
    ].join("\n"),
  },
  eval: {
    name: "eval",
    description: [
      "Compare code mode with direct tool calling on a tasks file (JSONL), same model",
      "",
      'Each line: { "id", "task", "expect": { "contains"?: [..], "matches"?: "regex" }, "maxTurns"? }.',
      "direct: the model gets every upstream tool; code: the meta-tools. Prints success, tokens, turns",
      "and time per mode (examples/eval/demo-tasks.jsonl for the demo's servers).",
    ].join("\n"),
  },
  demo: {
    name: "demo",
    description:
      "End-to-end run on bundled servers: a 20,000-row CSV aggregated in the sandbox, a summary stored in a knowledge graph",
  },
} as const;
