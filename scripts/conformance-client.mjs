#!/usr/bin/env node
// The client the conformance suite drives for its CLIENT scenarios
// (scripts/conformance.mjs passes it as `conformance client --command`).
//
// The suite runs `<this script> <server-url>` with MCP_CONFORMANCE_SCENARIO,
// MCP_CONFORMANCE_PROTOCOL_VERSION and, for some scenarios,
// MCP_CONFORMANCE_CONTEXT set. The MCP client under test is ToolScript's
// upstream client: this script writes a config whose only upstream is that URL
// and runs one program through `toolscript run`, which connects, lists the
// tools and calls what the scenario needs. It never talks MCP itself.
//
// Authorization scenarios (auth/*): the server entry gets an `oauth` object —
// `clientMetadataUrl` (the Client ID Metadata Document URL the suite's
// auth/basic-cimd expects) and, when MCP_CONFORMANCE_CONTEXT carries them
// (auth/pre-registration), `clientId`/`clientSecret` — and `toolscript run`
// gets BROWSER: an executable wrapper, written here, that runs
// test/fixtures/browser-follow.mjs with this Node (a command with no spaces,
// however ToolScript splits $BROWSER). The browser script follows the suite's
// authorization server to ToolScript's loopback callback; the URLs it visited
// are printed to stderr at the end (the suite keeps them in stderr.txt).
//
// Bounded: the program has a wall-clock limit and `toolscript run` is ended
// (its process group, which this script started) after RUN_LIMIT_MS
// (TOOLSCRIPT_CONFORMANCE_RUN_LIMIT_MS when set: the auth scenarios' shorter limit).
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const RUN_LIMIT_MS = Number(process.env.TOOLSCRIPT_CONFORMANCE_RUN_LIMIT_MS) || 50_000; // the suite waits 60 s
const PROGRAM_LIMIT_MS = 30_000;
const CONNECT_LIMIT_MS = 10_000;
/** The Client ID Metadata Document URL the suite's auth/basic-cimd scenario expects as client_id. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

const root = fileURLToPath(new URL("..", import.meta.url));
const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};

if (!url || !/^https?:\/\//.test(url)) {
  process.stderr.write("usage: conformance-client.mjs <server-url> (run by the conformance suite)\n");
  process.exit(2);
}

// Arguments for the tools the suite's mock servers offer (the sandbox has no
// schemas to make them up from); any other tool is called with {}.
const ARGS = {
  add_numbers: { a: 2, b: 3 },
  valid_tool: { region: "us-west1" },
  invalid_empty_header: { value: "x" },
  invalid_object_header: { data: {} },
  invalid_array_header: { items: ["x"] },
  invalid_null_header: { nil: null },
  invalid_number_header: { score: 1 },
  invalid_duplicate_same_case: { field1: "x", field2: "y" },
  invalid_duplicate_diff_case: { field1: "x", field2: "y" },
  invalid_space_in_name: { value: "x" },
  invalid_colon_in_name: { value: "x" },
  invalid_non_ascii_name: { value: "x" },
  invalid_control_char_name: { value: "x" },
};

// What each scenario needs of the client once it is connected and has listed
// the tools (connecting and listing happen before any program runs).
//   list: connect and list only; callAll: call every listed tool;
//   toolCalls: exactly the calls the suite names in MCP_CONFORMANCE_CONTEXT;
//   echoSchema: send the focal tool's inputSchema, as the gateway's catalog
//   holds it (`toolscript tools show --json`), back to the echo tool.
const PLANS = {
  initialize: { mode: "list" },
  "request-metadata": { mode: "list" },
  "json-schema-ref-no-deref": { mode: "list" },
  "json-schema-2020-12-preservation": {
    mode: "echoSchema",
    focal: "json_schema_2020_12_tool",
    echo: "json_schema_echo",
  },
};
const plan = Array.isArray(context.toolCalls)
  ? { mode: "toolCalls", toolCalls: context.toolCalls }
  : (PLANS[scenario] ?? { mode: "callAll" });

const auth = scenario.startsWith("auth/");
const dir = mkdtempSync(
  join(process.env.TOOLSCRIPT_CONFORMANCE_TMP ?? tmpdir(), `client-${scenario.replaceAll("/", "-")}-`),
);
const configFile = join(dir, "toolscript.config.json");
const programFile = join(dir, "program.ts");
const browserLog = join(dir, "browser.log");
const oauth = auth
  ? {
      clientMetadataUrl: CLIENT_METADATA_URL,
      ...(typeof context.client_id === "string" ? { clientId: context.client_id } : {}),
      ...(typeof context.client_secret === "string" ? { clientSecret: context.client_secret } : {}),
    }
  : undefined;
writeFileSync(
  configFile,
  `${JSON.stringify(
    {
      mcpServers: { s: { url, ...(oauth ? { oauth } : {}) } },
      toolscript: {
        storage: { dir: join(dir, "store") },
        // A shorter connect timeout than the default 30 s keeps a failing connect within the suite's limit;
        // an authorization (discovery, registration, the browser, the token) takes longer than a plain connect.
        upstream: { connectTimeoutMs: auth ? RUN_LIMIT_MS - 5_000 : CONNECT_LIMIT_MS },
      },
    },
    null,
    2,
  )}\n`,
);
// $BROWSER: one executable path, whatever the node binary's or the repo's path holds.
const browser = join(dir, "browser");
if (auth) {
  const follow = join(root, "test", "fixtures", "browser-follow.mjs");
  const quote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;
  writeFileSync(browser, `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(follow)} "$@"\n`);
  chmodSync(browser, 0o755);
}
// The echo plan reads the focal tool's definition as the gateway's upstream client
// received and kept it (a program sees tools as functions, not schemas).
if (plan.mode === "echoSchema") {
  const shown = spawnSync(
    process.execPath,
    [
      join(root, "bin", "toolscript.js"),
      "tools",
      "show",
      `s/${plan.focal}`,
      "--json",
      "--config",
      configFile,
    ],
    { cwd: dir, encoding: "utf8", timeout: 15_000, stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    plan.schema = JSON.parse(shown.stdout).inputSchema;
  } catch {
    process.stderr.write(`conformance-client: no definition of ${plan.focal} from toolscript tools show\n`);
  }
}
// The program: plain JavaScript that is also valid TypeScript (run with --no-typecheck).
const program = `// conformance scenario ${scenario}
const plan = ${JSON.stringify({ ...plan, args: ARGS })};
const names = Object.keys(tools.s);
console.log("tools: " + JSON.stringify(names));
let calls = [];
if (plan.mode === "toolCalls") calls = plan.toolCalls;
if (plan.mode === "callAll") calls = names.map((name) => ({ name, arguments: plan.args[name] ?? {} }));
if (plan.mode === "echoSchema") calls = [{ name: plan.echo, arguments: { schema: plan.schema } }];
for (const call of calls) {
  try {
    const result = await tools.s[call.name](call.arguments ?? {});
    console.log("call " + call.name + " -> " + JSON.stringify(result).slice(0, 300));
  } catch (error) {
    console.log("call " + call.name + " failed: " + error.name + ": " + String(error.message).slice(0, 300));
  }
}
return { scenario: ${JSON.stringify(scenario)}, tools: names.length, calls: calls.length };
`;
writeFileSync(programFile, program);

process.stderr.write(
  `conformance-client: scenario ${scenario} (${process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "?"}), ${url}, plan ${plan.mode}\n`,
);

const child = spawn(
  process.execPath,
  [
    join(root, "bin", "toolscript.js"),
    "run",
    programFile,
    "--config",
    configFile,
    "--timeout",
    String(PROGRAM_LIMIT_MS),
    "--no-typecheck",
  ],
  {
    cwd: dir,
    detached: true,
    stdio: ["ignore", "inherit", "inherit"],
    env: auth ? { ...process.env, BROWSER: browser, TOOLSCRIPT_TEST_BROWSER_LOG: browserLog } : process.env,
  },
);

function killGroup(signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {}
}
const timer = setTimeout(() => {
  process.stderr.write(`conformance-client: toolscript run over ${RUN_LIMIT_MS / 1000}s, stopping it\n`);
  killGroup("SIGTERM");
  setTimeout(() => killGroup("SIGKILL"), 3000).unref();
}, RUN_LIMIT_MS);
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    killGroup("SIGKILL");
    process.exit(130);
  });

child.on("exit", (code, signal) => {
  clearTimeout(timer);
  killGroup("SIGTERM"); // anything the run left behind in its group
  if (auth)
    process.stderr.write(
      existsSync(browserLog)
        ? `conformance-client: the browser visited:\n${readFileSync(browserLog, "utf8")}`
        : "conformance-client: the browser was not started\n",
    );
  rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
