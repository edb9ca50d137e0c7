// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references in plain strings are what these tests feed the config.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ConfigError } from "./errors.ts";
import type { ConfigIssue } from "./issues.ts";
import { formatIssues } from "./issues.ts";
import { parseConfig, validateConfig } from "./parse.ts";

const BASE = join("/", "home", "me", "project");
const options = { baseDir: BASE, env: {} };

function issuesOf(json: unknown, env: Record<string, string> = {}): ConfigIssue[] {
  const result = validateConfig(json, { baseDir: BASE, env });
  assert.equal(result.ok, false, "expected the config to be invalid");
  return result.ok ? [] : result.issues;
}

describe("parseConfig: errors", () => {
  it("names toolscript.llm's bad or missing keys", () => {
    assert.deepEqual(issuesOf({ toolscript: { llm: { provider: "mistral", model: "m" } } }), [
      { path: "toolscript.llm.provider", message: 'expected one of "anthropic", "openai"' },
    ]);
    assert.deepEqual(issuesOf({ toolscript: { llm: {} } }), [
      { path: "toolscript.llm.provider", message: 'expected one of "anthropic", "openai"' },
      { path: "toolscript.llm.model", message: "required" },
    ]);
    assert.deepEqual(
      issuesOf({
        toolscript: {
          llm: {
            provider: "openai",
            model: "m",
            baseUrl: "localhost:11434",
            maxTokens: 0,
            maxRetries: 1.5,
            pricing: { inputPerMTok: -1 },
          },
        },
      }),
      [
        { path: "toolscript.llm.baseUrl", message: "must be an http(s) URL" },
        { path: "toolscript.llm.maxTokens", message: "must be >= 1" },
        { path: "toolscript.llm.maxRetries", message: "expected an integer, received 1.5" },
        { path: "toolscript.llm.pricing.inputPerMTok", message: "must be >= 0" },
        { path: "toolscript.llm.pricing.outputPerMTok", message: "required" },
      ],
    );
    assert.deepEqual(
      issuesOf({ toolscript: { llm: { provider: "openai", model: "m", apiKey: "${NOPE}" } } }),
      [{ path: "toolscript.llm.apiKey", message: "environment variable NOPE is not set" }],
    );
    assert.deepEqual(issuesOf({ toolscript: { llm: { provider: "openai", model: "m", maxRetires: 3 } } }), [
      { path: "toolscript.llm.maxRetires", message: 'unknown key, did you mean "maxRetries"?' },
    ]);
  });

  it("names toolscript.anomalies' bad keys and values", () => {
    assert.deepEqual(
      issuesOf({
        toolscript: {
          anomalies: {
            responses: { burst: "shout" },
            burst: { minCalls: 0 },
            exfiltration: { minReadBytes: "1MB" },
            cooldownSecond: 60,
          },
        },
      }),
      [
        {
          path: "toolscript.anomalies.responses.burst",
          message: 'expected one of "log", "approve", "block"',
        },
        { path: "toolscript.anomalies.burst.minCalls", message: "must be >= 1" },
        {
          path: "toolscript.anomalies.exfiltration.minReadBytes",
          message: "expected number, received string",
        },
        {
          path: "toolscript.anomalies.cooldownSecond",
          message: 'unknown key, did you mean "cooldownSeconds"?',
        },
      ],
    );
  });

  it("names the path of a wrongly typed field", () => {
    assert.deepEqual(issuesOf({ mcpServers: { github: { command: 42 } } }), [
      { path: "mcpServers.github.command", message: "expected string, received number" },
    ]);
  });

  it("reports out-of-range and non-integer settings", () => {
    assert.deepEqual(
      issuesOf({ toolscript: { sandbox: { timeoutMs: 50, memoryMb: 99999, poolSize: 1.5 } } }),
      [
        { path: "toolscript.sandbox.timeoutMs", message: "must be >= 100" },
        { path: "toolscript.sandbox.memoryMb", message: "must be <= 4096" },
        { path: "toolscript.sandbox.poolSize", message: "expected an integer, received 1.5" },
      ],
    );
  });

  it("names toolscript.sandbox.level and its allowed values for a bad level", () => {
    assert.deepEqual(issuesOf({ toolscript: { sandbox: { level: "paranoid" } } }), [
      {
        path: "toolscript.sandbox.level",
        message: 'expected one of "development", "production", "hardened"',
      },
    ]);
    assert.deepEqual(issuesOf({ toolscript: { sandbox: { level: "hardened", memoryMb: 1 } } }), [
      { path: "toolscript.sandbox.memoryMb", message: "must be >= 8" },
    ]);
  });

  it("reports an unknown key in a strict section with a suggestion", () => {
    assert.deepEqual(issuesOf({ toolscript: { sandbox: { timeoutMS: 5000 } } }), [
      { path: "toolscript.sandbox.timeoutMS", message: 'unknown key, did you mean "timeoutMs"?' },
    ]);
    assert.deepEqual(issuesOf({ toolscript: { sandbx: {} } }), [
      { path: "toolscript.sandbx", message: 'unknown key, did you mean "sandbox"?' },
    ]);
  });

  it("reports an unknown key in a server entry, listing the allowed ones when nothing is close", () => {
    const [typo, other] = issuesOf({ mcpServers: { fs: { command: "npx", arg: ["-y"], banana: 1 } } });
    assert.deepEqual(typo, { path: "mcpServers.fs.arg", message: 'unknown key, did you mean "args"?' });
    assert.equal(other?.path, "mcpServers.fs.banana");
    assert.match(
      other?.message ?? "",
      /^unknown key \(allowed: command, args, env, cwd, url, headers, type, /,
    );
  });

  it("reports an entry with neither command nor url, or both, once at the entry", () => {
    assert.deepEqual(issuesOf({ mcpServers: { a: {}, b: { command: "x", url: "https://b.example.com" } } }), [
      { path: "mcpServers.a", message: 'must have "command" (stdio server) or "url" (remote server)' },
      {
        path: "mcpServers.b",
        message: 'must have either "command" (stdio server) or "url" (remote server), not both',
      },
    ]);
  });

  it("reports fields and types that contradict the server kind", () => {
    assert.deepEqual(
      issuesOf({
        mcpServers: {
          s: { type: "sse", command: "x", headers: {} },
          r: { type: "stdio", url: "https://r.example.com", args: [], cwd: "." },
          t: { type: "websocket", command: "x" },
        },
      }),
      [
        {
          path: "mcpServers.s.type",
          message: 'type "sse" is for remote servers, which need "url" instead of "command"',
        },
        { path: "mcpServers.s.headers", message: 'only applies to remote servers (with "url")' },
        { path: "mcpServers.r.type", message: 'type "stdio" needs "command" instead of "url"' },
        { path: "mcpServers.r.args", message: 'only applies to stdio servers (with "command")' },
        { path: "mcpServers.r.cwd", message: 'only applies to stdio servers (with "command")' },
        { path: "mcpServers.t.type", message: 'expected one of "stdio", "http", "sse", "streamable-http"' },
      ],
    );
  });

  it("reports bad URLs without echoing them", () => {
    assert.deepEqual(
      issuesOf(
        {
          mcpServers: { a: { url: "not a url" }, b: { url: "ftp://x.example.com" }, c: { url: "${U}" } },
        },
        { U: "wss://secret@x" },
      ),
      [
        { path: "mcpServers.a.url", message: "invalid URL" },
        { path: "mcpServers.b.url", message: "must be an http or https URL, not ftp" },
        { path: "mcpServers.c.url", message: "must be an http or https URL, not wss" },
      ],
    );
  });

  it("reports an unset variable at the exact field path", () => {
    assert.deepEqual(
      issuesOf({
        mcpServers: {
          github: {
            url: "https://api.example.com/mcp",
            headers: { Authorization: "Bearer ${GITHUB_TOKEN}" },
          },
          "github.com": { command: "x", args: ["${A}"], env: { K: "${B}" } },
        },
        toolscript: { server: { http: { token: "${TS_TOKEN}" } } },
      }),
      [
        {
          path: "mcpServers.github.headers.Authorization",
          message: "environment variable GITHUB_TOKEN is not set",
        },
        { path: 'mcpServers["github.com"].args[0]', message: "environment variable A is not set" },
        { path: 'mcpServers["github.com"].env.K', message: "environment variable B is not set" },
        { path: "toolscript.server.http.token", message: "environment variable TS_TOKEN is not set" },
      ],
    );
  });

  it("reports HTTP clients with an unset variable, an empty token or a bad name at their path", () => {
    const issues = issuesOf({
      toolscript: { server: { http: { clients: { ci: "${CI_TOKEN}", empty: "", "bad name": "t" } } } },
    });
    assert.deepEqual(
      issues.map((issue) => issue.path),
      [
        "toolscript.server.http.clients.ci",
        "toolscript.server.http.clients.empty",
        'toolscript.server.http.clients["bad name"]',
      ],
    );
    assert.match(issues[0]?.message ?? "", /CI_TOKEN is not set/);
    assert.match(issues[1]?.message ?? "", /cannot be empty/);
    assert.match(issues[2]?.message ?? "", /client name/);
  });

  it("reports invalid and empty-matching privacy regexes and duplicate names", () => {
    assert.deepEqual(
      issuesOf({
        toolscript: {
          privacy: {
            patterns: [
              { name: "A", regex: "(" },
              { name: "B", regex: "x*" },
              { name: "A", regex: "a", flags: "q" },
              { name: "1bad", regex: "a" },
            ],
          },
        },
      }),
      [
        {
          path: "toolscript.privacy.patterns[0].regex",
          message: "invalid regular expression: Unterminated group",
        },
        { path: "toolscript.privacy.patterns[1].regex", message: "must not match the empty string" },
        { path: "toolscript.privacy.patterns[2].flags", message: "invalid regular expression flags" },
        {
          path: "toolscript.privacy.patterns[3].name",
          message: "must start with a letter and hold only letters, digits and _",
        },
        { path: "toolscript.privacy.patterns[2].name", message: 'duplicate pattern name "A"' },
      ],
    );
  });

  it("checks relations between settings", () => {
    assert.deepEqual(
      issuesOf({
        toolscript: {
          output: { maxTokens: 5000, maxTokensLimit: 1000 },
          upstream: { restart: { initialDelayMs: 1000, maxDelayMs: 10 } },
        },
      }),
      [
        { path: "toolscript.upstream.restart.maxDelayMs", message: "must be >= initialDelayMs" },
        { path: "toolscript.output.maxTokens", message: "must be <= maxTokensLimit (1000)" },
      ],
    );
  });

  it("reports many problems at once, across servers and sections", () => {
    const issues = issuesOf(
      {
        mcpservers: {},
        mcpServers: {
          github: { command: 42 },
          remote: { url: "https://r.example.com", headers: { Authorization: "${NOPE}" } },
          "": { command: "x" },
        },
        toolscript: {
          sandbox: { runtime: "deno", timeoutMS: 1 },
          policy: { deny: "github/*" },
          privacy: { pii: "yes" },
        },
      },
      {},
    );
    assert.equal(
      formatIssues(issues),
      [
        'mcpservers: unknown key, did you mean "mcpServers"?',
        "mcpServers.github.command: expected string, received number",
        "mcpServers.remote.headers.Authorization: environment variable NOPE is not set",
        'mcpServers[""]: server name must not be empty',
        'toolscript.sandbox.runtime: expected one of "isolate", "process"',
        'toolscript.sandbox.timeoutMS: unknown key, did you mean "timeoutMs"?',
        "toolscript.privacy.pii: expected boolean, received string",
        "toolscript.policy.deny: expected array, received string",
      ].join("\n"),
    );
  });

  it("rejects a document that is not an object, and null sections", () => {
    assert.deepEqual(issuesOf([]), [{ path: "", message: "expected object, received array" }]);
    assert.deepEqual(issuesOf({ mcpServers: null, toolscript: 5 }), [
      { path: "mcpServers", message: "expected object, received null" },
      { path: "toolscript", message: "expected object, received number" },
    ]);
  });

  it("reports a __proto__ server name instead of dropping it", () => {
    assert.deepEqual(issuesOf(JSON.parse('{"mcpServers": {"__proto__": {"command": "x"}}}')), [
      { path: "mcpServers.__proto__", message: "server name __proto__ is not allowed" },
    ]);
  });

  it("throws one ConfigError listing every issue", () => {
    let caught: unknown;
    try {
      parseConfig({ mcpServers: { a: {}, b: { command: 1 } } }, options);
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof ConfigError);
    assert.equal(caught.code, "config.invalid");
    assert.equal(caught.data.file, undefined);
    assert.deepEqual(
      caught.data.issues.map((i) => i.path),
      ["mcpServers.a", "mcpServers.b.command"],
    );
    assert.equal(
      caught.message,
      'Invalid config:\n  mcpServers.a: must have "command" (stdio server) or "url" (remote server)\n' +
        "  mcpServers.b.command: expected string, received number",
    );
  });
});
