// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references in plain strings are what these tests feed the config.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { parseConfig } from "./parse.ts";

const BASE = join("/", "home", "me", "project");
const options = { baseDir: BASE, env: {} };

describe("parseConfig: client formats", () => {
  it("accepts a Claude Desktop file verbatim", () => {
    const claudeDesktop = JSON.parse(`{
      "mcpServers": {
        "filesystem": {
          "command": "npx",
          "args": [
            "-y",
            "@modelcontextprotocol/server-filesystem",
            "/Users/username/Desktop",
            "/Users/username/Downloads"
          ]
        },
        "brave-search": {
          "command": "npx",
          "args": ["-y", "@modelcontextprotocol/server-brave-search"],
          "env": { "BRAVE_API_KEY": "YOUR_API_KEY_HERE" }
        }
      },
      "globalShortcut": "Ctrl+Space"
    }`);
    const config = parseConfig(claudeDesktop, options);
    assert.deepEqual(config.servers, [
      {
        kind: "stdio",
        name: "filesystem",
        command: "npx",
        args: [
          "-y",
          "@modelcontextprotocol/server-filesystem",
          "/Users/username/Desktop",
          "/Users/username/Downloads",
        ],
        env: {},
        disabled: false,
      },
      {
        kind: "stdio",
        name: "brave-search",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-brave-search"],
        env: { BRAVE_API_KEY: "YOUR_API_KEY_HERE" },
        disabled: false,
      },
    ]);
    assert.equal(config.source, "inline");
    assert.equal(config.settings.sandbox.runtime, "isolate");
  });

  it("accepts a Claude Code .mcp.json with type and ${VAR:-default}", () => {
    const mcpJson = {
      $schema: "https://json.schemastore.org/mcp.json",
      mcpServers: {
        "api-server": {
          type: "http",
          url: "${API_BASE_URL:-https://api.example.com}/mcp",
          headers: { Authorization: "Bearer ${API_KEY}" },
        },
        local: { type: "stdio", command: "/path/to/server", args: [], env: {} },
        legacy: { type: "sse", url: "https://sse.example.com/sse" },
        streamable: { type: "streamable-http", url: "https://x.example.com/mcp" },
      },
    };
    const config = parseConfig(mcpJson, { baseDir: BASE, env: { API_KEY: "k-123" } });
    assert.deepEqual(config.servers, [
      {
        kind: "http",
        name: "api-server",
        url: "https://api.example.com/mcp",
        headers: { Authorization: "Bearer k-123" },
        transport: "streamable-http",
        disabled: false,
      },
      { kind: "stdio", name: "local", command: "/path/to/server", args: [], env: {}, disabled: false },
      {
        kind: "http",
        name: "legacy",
        url: "https://sse.example.com/sse",
        headers: {},
        transport: "sse",
        disabled: false,
      },
      {
        kind: "http",
        name: "streamable",
        url: "https://x.example.com/mcp",
        headers: {},
        transport: "streamable-http",
        disabled: false,
      },
    ]);
  });

  it("accepts a Cursor mcp.json with url + headers (transport auto) and ${env:VAR}", () => {
    const cursor = {
      mcpServers: {
        "server-name": { url: "http://localhost:3000/mcp", headers: { API_KEY: "${env:MY_KEY}" } },
      },
    };
    const [server] = parseConfig(cursor, { baseDir: BASE, env: { MY_KEY: "s3cret" } }).servers;
    assert.deepEqual(server, {
      kind: "http",
      name: "server-name",
      url: "http://localhost:3000/mcp",
      headers: { API_KEY: "s3cret" },
      transport: "auto",
      disabled: false,
    });
  });

  it("accepts the client keys Cline / Roo Code write and reads timeout in seconds or ms", () => {
    const config = parseConfig(
      {
        mcpServers: {
          cline: { command: "node", args: ["s.js"], disabled: true, autoApprove: ["read"], timeout: 60 },
          roo: { command: "node", alwaysAllow: ["x"], timeout: 1.5 },
          gemini: { url: "https://g.example.com/mcp", timeout: 600_000 },
          ours: { command: "node", timeoutMs: 2500 },
        },
      },
      options,
    );
    assert.deepEqual(
      config.servers.map((s) => [s.name, s.disabled, s.timeoutMs]),
      [
        ["cline", true, 60_000],
        ["roo", false, 1500],
        ["gemini", false, 600_000],
        ["ours", false, 2500],
      ],
    );
  });

  it("parses the example of DESIGN.md", () => {
    const config = parseConfig(
      {
        mcpServers: {
          filesystem: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "./data"] },
          github: {
            url: "https://example.invalid/mcp",
            headers: { Authorization: "Bearer ${GITHUB_TOKEN}" },
          },
        },
        toolscript: {
          sandbox: { runtime: "isolate", timeoutMs: 30000, memoryMb: 128, maxToolCalls: 1000 },
          output: { maxTokens: 2000 },
          privacy: { pii: true },
          policy: { deny: ["github/delete_*"], approve: ["*/write_*"] },
          storage: { dir: ".toolscript" },
        },
      },
      { baseDir: BASE, env: { GITHUB_TOKEN: "ghp_x" } },
    );
    assert.deepEqual(config.settings.policy, {
      allow: ["*/*"],
      deny: ["github/delete_*"],
      approve: ["*/write_*"],
      readOnly: false,
      unannotated: "approve",
      approveDestructive: false,
    });
    assert.equal(
      config.servers[1]?.kind === "http" && config.servers[1].headers.Authorization,
      "Bearer ghp_x",
    );
  });

  it("keeps server names as written, dots and dashes included", () => {
    const config = parseConfig(
      { mcpServers: { "github.com": { url: "https://github.com/mcp" }, "my-server": { command: "x" } } },
      options,
    );
    assert.deepEqual(
      config.servers.map((s) => s.name),
      ["github.com", "my-server"],
    );
  });
});

describe("parseConfig: defaults and resolution", () => {
  it("fills every setting with its default for an empty object", () => {
    const config = parseConfig({}, options);
    assert.deepEqual(config, {
      source: "inline",
      baseDir: BASE,
      servers: [],
      settings: {
        sandbox: {
          typecheck: true,
          typecheckIdleSeconds: 120,
          runtime: "isolate",
          timeoutMs: 30_000,
          memoryMb: 128,
          maxToolCalls: 1000,
          maxLogBytes: 65_536,
          bubblewrap: true,
          poolSize: 2,
          maxResultBytes: 64 * 1024 * 1024,
          maxOutputBytes: 4 * 1024 * 1024,
          maxConcurrent: 8,
          maxQueued: 64,
          python: { pool: 2 },
        },
        upstream: {
          callTimeoutMs: 60_000,
          connectTimeoutMs: 30_000,
          maxConcurrency: 8,
          callsPerMinute: 0,
          restart: { maxRetries: 5, initialDelayMs: 500, maxDelayMs: 30_000 },
          maxArgumentBytes: 1024 * 1024,
          maxMessageBytes: 10 * 1024 * 1024,
        },
        output: { maxTokens: 2000, maxTokensLimit: 20_000, strategy: "auto", tokenizer: "claude-legacy" },
        privacy: { pii: true, patterns: [], exclude: [], phoneRegion: "US" },
        policy: {
          allow: ["*/*"],
          deny: [],
          approve: [],
          readOnly: false,
          unannotated: "approve",
          approveDestructive: false,
        },
        storage: { dir: join(BASE, ".toolscript") },
        audit: { stderr: "violations", alertAfter: 20 },
        anomalies: {
          enabled: true,
          responses: { burst: "log", denials: "approve", errors: "log", exfiltration: "approve" },
          cooldownSeconds: 600,
          responseTtlSeconds: 3600,
          idleSessionSeconds: 1800,
          burst: { windowSeconds: 10, minCalls: 200, factor: 5, gatewayFactor: 4 },
          denials: { windowSeconds: 60, minCount: 8, factor: 5 },
          errors: { windowSeconds: 60, minCount: 25, factor: 5 },
          exfiltration: { windowSeconds: 300, minReadBytes: 1_048_576, minWriteBytes: 65_536, factor: 4 },
        },
        solve: { reuseSimilarity: 0.85, generatedTtlDays: 30, answerCacheTtlHours: 168 },
        server: {
          http: {
            host: "127.0.0.1",
            port: 7777,
            clients: {},
            maxSessionsPerClient: 64,
            allowUnauthenticatedLoopback: false,
            executionsPerMinute: 600,
          },
        },
        passThrough: {},
      },
    });
  });

  it("reads a server's era and upstream.probeTimeoutMs; refuses an unknown era", () => {
    const config = parseConfig(
      {
        mcpServers: {
          old: { command: "node", args: ["s.js"], era: "legacy" },
          remote: { url: "https://example.invalid/mcp", era: "auto" },
          plain: { command: "node" },
        },
        toolscript: { upstream: { probeTimeoutMs: 1500 } },
      },
      options,
    );
    assert.deepEqual(
      config.servers.map((server) => [server.name, server.era]),
      [
        ["old", "legacy"],
        ["remote", "auto"],
        ["plain", undefined],
      ],
    );
    assert.equal(config.settings.upstream.probeTimeoutMs, 1500);
    assert.throws(
      () => parseConfig({ mcpServers: { old: { command: "node", era: "2025" } } }, options),
      /mcpServers\.old\.era/,
    );
    assert.throws(
      () => parseConfig({ toolscript: { upstream: { probeTimeoutMs: 5 } } }, options),
      /upstream\.probeTimeoutMs/,
    );
  });

  it("reads toolscript.llm with its defaults, ${VAR} in apiKey and baseUrl; absent stays undefined", () => {
    assert.equal(parseConfig({}, options).settings.llm, undefined);
    const { settings } = parseConfig(
      {
        toolscript: {
          llm: {
            provider: "openai",
            model: "llama3.2",
            baseUrl: "${OLLAMA:-http://127.0.0.1:11434}/v1",
            apiKey: "${KEY}",
            pricing: { inputPerMTok: 3, outputPerMTok: 15 },
          },
        },
      },
      { baseDir: BASE, env: { KEY: "sk-test" } },
    );
    assert.deepEqual(settings.llm, {
      provider: "openai",
      model: "llama3.2",
      baseUrl: "http://127.0.0.1:11434/v1",
      apiKey: "sk-test",
      maxTokens: 4096,
      maxRetries: 3,
      timeoutMs: 120_000,
      approveGenerated: false,
      pricing: { inputPerMTok: 3, outputPerMTok: 15 },
    });
    const empty = parseConfig(
      {
        toolscript: {
          llm: { provider: "anthropic", model: "c", apiKey: "${KEY:-}", approveGenerated: true },
        },
      },
      options,
    ).settings.llm;
    assert.equal(empty?.apiKey, undefined, "an empty key after expansion means none");
    assert.equal(empty?.approveGenerated, true);
  });

  it("merges a partial section with the defaults", () => {
    const { settings } = parseConfig(
      { toolscript: { sandbox: { memoryMb: 256 }, upstream: { restart: { maxRetries: 0 } } } },
      options,
    );
    assert.equal(settings.sandbox.memoryMb, 256);
    assert.equal(settings.sandbox.timeoutMs, 30_000);
    assert.deepEqual(settings.upstream.restart, { maxRetries: 0, initialDelayMs: 500, maxDelayMs: 30_000 });
  });

  it("sandbox.level presets tier, limits and type-checking; explicit keys override it", () => {
    const plain = parseConfig({}, options).settings.sandbox;
    assert.equal(plain.level, undefined);
    assert.equal(plain.typecheck, true);
    const hardened = parseConfig({ toolscript: { sandbox: { level: "hardened" } } }, options).settings
      .sandbox;
    assert.deepEqual(
      [hardened.runtime, hardened.bubblewrap, hardened.timeoutMs, hardened.memoryMb, hardened.maxToolCalls],
      ["process", true, 10_000, 64, 100],
    );
    assert.equal(hardened.typecheck, true);
    const development = parseConfig({ toolscript: { sandbox: { level: "development" } } }, options).settings
      .sandbox;
    assert.deepEqual(
      [development.runtime, development.timeoutMs, development.memoryMb, development.maxToolCalls],
      ["isolate", 120_000, 512, 10_000],
    );
    const production = parseConfig({ toolscript: { sandbox: { level: "production" } } }, options).settings
      .sandbox;
    assert.deepEqual({ ...production, level: undefined }, { ...plain, level: undefined });
    const overridden = parseConfig(
      {
        toolscript: {
          sandbox: { level: "hardened", timeoutMs: 20_000, runtime: "isolate", typecheck: false },
        },
      },
      options,
    ).settings.sandbox;
    assert.deepEqual(
      [overridden.runtime, overridden.timeoutMs, overridden.memoryMb, overridden.typecheck],
      ["isolate", 20_000, 64, false],
    );
  });

  it("sandbox.python.pool sets the ready Python interpreters; out of range or unknown keys are refused", () => {
    const settings = parseConfig({ toolscript: { sandbox: { python: { pool: 0 } } } }, options).settings;
    assert.equal(settings.sandbox.python.pool, 0);
    assert.throws(
      () => parseConfig({ toolscript: { sandbox: { python: { pool: 100 } } } }, options),
      /python\.pool/,
    );
    assert.throws(() => parseConfig({ toolscript: { sandbox: { python: { size: 1 } } } }, options), /size/);
  });

  it("does not share default arrays between configs", () => {
    const first = parseConfig({}, options);
    first.settings.policy.allow.push("mutated");
    assert.deepEqual(parseConfig({}, options).settings.policy.allow, ["*/*"]);
  });

  it("resolves cwd and storage.dir against baseDir, keeps absolute ones", () => {
    const config = parseConfig(
      {
        mcpServers: {
          rel: { command: "node", cwd: "servers/a" },
          abs: { command: "node", cwd: "/opt/srv" },
          fromEnv: { command: "node", cwd: "${SRV_DIR}/b" },
        },
        toolscript: { storage: { dir: "../state" } },
      },
      { baseDir: BASE, env: { SRV_DIR: "vendor" } },
    );
    assert.deepEqual(
      config.servers.map((s) => (s.kind === "stdio" ? s.cwd : undefined)),
      [join(BASE, "servers", "a"), "/opt/srv", join(BASE, "vendor", "b")],
    );
    assert.equal(config.settings.storage.dir, join("/", "home", "me", "state"));
  });

  it("expands ${VAR} in command, args, env, url, headers and the http token", () => {
    const env = { BIN: "/usr/bin/node", ROOT: "/data", KEY: "k1", HOST: "mcp.example.com", TOKEN: "t0k" };
    const config = parseConfig(
      {
        mcpServers: {
          s: { command: "${BIN}", args: ["--root", "${ROOT}/files"], env: { API_KEY: "${KEY}", PLAIN: "x" } },
          r: { url: "https://${HOST}/mcp?key=${KEY}", headers: { "X-Key": "${KEY}" } },
        },
        toolscript: { server: { http: { token: "${TOKEN}" } } },
      },
      { baseDir: BASE, env },
    );
    assert.deepEqual(config.servers[0], {
      kind: "stdio",
      name: "s",
      command: "/usr/bin/node",
      args: ["--root", "/data/files"],
      env: { API_KEY: "k1", PLAIN: "x" },
      disabled: false,
    });
    const remote = config.servers[1];
    assert.equal(remote?.kind, "http");
    assert.equal(remote?.kind === "http" && remote.url, "https://mcp.example.com/mcp?key=k1");
    assert.deepEqual(remote?.kind === "http" && remote.headers, { "X-Key": "k1" });
    assert.equal(config.settings.server.http.token, "t0k");
  });

  it("expands ${VAR} in storage.dir before resolving it", () => {
    const config = parseConfig({ toolscript: { storage: { dir: "${STATE:-.state}/ts" } } }, options);
    assert.equal(config.settings.storage.dir, join(BASE, ".state", "ts"));
    const absolute = parseConfig(
      { toolscript: { storage: { dir: "${STATE}/ts" } } },
      { baseDir: BASE, env: { STATE: "/var/lib" } },
    );
    assert.equal(absolute.settings.storage.dir, join("/", "var", "lib", "ts"));
  });

  it("expands the tokens of HTTP clients", () => {
    const config = parseConfig(
      { toolscript: { server: { http: { clients: { ci: "${CI_TOKEN}", alice: "plain" } } } } },
      { baseDir: BASE, env: { CI_TOKEN: "t-ci" } },
    );
    assert.deepEqual(config.settings.server.http.clients, { ci: "t-ci", alice: "plain" });
  });

  it("treats a token that expands to empty as no token", () => {
    const config = parseConfig({ toolscript: { server: { http: { token: "${TS_TOKEN:-}" } } } }, options);
    assert.equal(config.settings.server.http.token, undefined);
  });

  it("keeps disabled servers without checking their variables", () => {
    const config = parseConfig(
      {
        mcpServers: {
          gh: { url: "${GH_URL}", headers: { Authorization: "Bearer ${GITHUB_TOKEN}" }, disabled: true },
        },
      },
      options,
    );
    assert.deepEqual(config.servers, [
      {
        kind: "http",
        name: "gh",
        url: "${GH_URL}",
        headers: { Authorization: "Bearer ${GITHUB_TOKEN}" },
        transport: "auto",
        disabled: true,
      },
    ]);
  });

  it("accepts valid privacy patterns", () => {
    const { settings } = parseConfig(
      { toolscript: { privacy: { patterns: [{ name: "EMPLOYEE_ID", regex: "E-\\d{6}", flags: "i" }] } } },
      options,
    );
    assert.deepEqual(settings.privacy.patterns, [{ name: "EMPLOYEE_ID", regex: "E-\\d{6}", flags: "i" }]);
  });
});
