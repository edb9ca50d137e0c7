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
  audit: { name: "audit", description: "Read the audit log: executions and tool calls, newest first" },
  auth: { name: "auth", description: "OAuth logins to remote MCP servers: login, status, logout" },
  demo: {
    name: "demo",
    description:
      "End-to-end run on bundled servers: a 20,000-row CSV aggregated in the sandbox, a summary stored in a knowledge graph",
  },
} as const;
