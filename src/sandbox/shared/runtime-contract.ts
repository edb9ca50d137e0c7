import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createExecutionBridge } from "../../bridge/execution-bridge.ts";
import type { Upstream } from "../../bridge/types.ts";
import { Catalog } from "../../catalog/catalog.ts";
import { closeMatches } from "../../catalog/close-matches.ts";
import { compileProgram } from "../../compile/compile.ts";
import { compileSkillModule } from "../../skills/skill-module.ts";
import { FakeBridge, hostError } from "../fake-bridge.ts";
import { MAX_REPORT_CHARS } from "../isolate/prelude.ts";
import type {
  ExecutionResult,
  HostBridge,
  RunOptions,
  SandboxFileInfo,
  SandboxRuntime,
  SandboxSkillModule,
} from "../types.ts";
import { SANDBOX_GLOBALS } from "./globals/catalog.ts";

/** A workspace in a Map, failing like the real one (errors named WorkspaceError with a code). */
function memoryWorkspace(): NonNullable<HostBridge["workspace"]> {
  const files = new Map<string, Uint8Array>();
  const fail = (code: string, message: string) =>
    Object.assign(new Error(message), { name: "WorkspaceError", code, data: { code } });
  const info = (path: string): SandboxFileInfo => ({
    path,
    size: files.get(path)?.byteLength ?? 0,
    mtime: 1,
  });
  return {
    readFile(path, encoding) {
      const bytes = files.get(path);
      if (!bytes) throw fail("workspace.not_found", `no file "${path}"`);
      return encoding === "bytes" ? bytes : new TextDecoder().decode(bytes);
    },
    writeFile(path, data) {
      if (path.includes("..")) throw fail("workspace.bad_path", "no ..");
      files.set(path, typeof data === "string" ? new TextEncoder().encode(data) : data);
      return info(path);
    },
    list(prefix) {
      return [...files.keys()]
        .filter((path) => prefix === undefined || path.startsWith(prefix))
        .sort()
        .map(info);
    },
    remove(path) {
      if (!files.delete(path)) throw fail("workspace.not_found", `no file "${path}"`);
    },
  };
}

/** Skills compiled the way the gateway compiles them, served from a record of name -> code. */
function skillLoader(
  sources: Record<string, string>,
  loads: string[],
): (name: string) => Promise<SandboxSkillModule> {
  return async (name) => {
    loads.push(name);
    const code = sources[name];
    if (code === undefined) throw hostError("SkillError", `No skill "${name}"`, "skill.not_found");
    const compiled = await compileSkillModule(name, code);
    return { name, version: 1, js: compiled.js, imports: compiled.imports, typeExports: ["Shape"] };
  };
}

/**
 * The behaviour every sandbox tier must share (results, console, tools, errors,
 * isolation between runs), as one suite that each tier's tests run against its
 * own runtime. Test support only: imported by `*.test.ts` files.
 */
export function describeRuntimeContract(label: string, runtime: SandboxRuntime): void {
  after(() => runtime.close());

  const defaultBridge = new FakeBridge({
    "my-server/get-sum": (args) => {
      const { a, b } = args as { a: number; b: number };
      return { sum: a + b };
    },
    "my-server/echo": (args) => args,
    "my-server/fail": () => {
      throw hostError("ToolError", "upstream said no", "tool.failed", { content: "no" });
    },
    "my-server/deny": () => {
      throw hostError("PolicyError", "denied by policy", "policy.denied");
    },
    "my-server/invalid": () => {
      throw hostError("ValidationError", "bad args", "validation", { path: "a" });
    },
    "my-server/weird": () => {
      throw hostError("RateLimitError", "slow down", "rate");
    },
    "other/nothing": () => undefined,
  });

  async function run(
    source: string,
    options: Partial<RunOptions> & { bridge?: HostBridge } = {},
  ): Promise<ExecutionResult> {
    const compiled = await compileProgram(source, "typescript");
    if (!compiled.ok) throw new Error(`compile failed: ${compiled.error.message}`);
    const bridge = options.bridge ?? defaultBridge;
    return runtime.run({
      code: compiled.js,
      sourceMap: compiled.sourceMap,
      tools: bridge instanceof FakeBridge ? bridge.namespace() : {},
      timeoutMs: 5_000,
      memoryMb: 64,
      maxLogBytes: 10_000,
      ...options,
      bridge,
    });
  }

  describe(`${label}: no host in what comes back`, () => {
    // Host markers of either tier: repository and module paths, Deno's ext:, runner paths.
    const HOST_MARKERS = /\/work\/|node_modules|file:|ext:|isolated-vm|toolscript:|toolscript-process-/;

    it("keeps host paths out of every reported stack", async () => {
      const results = await Promise.all([
        run("null.x"),
        run("await tools['my-server'].fail({})"),
        run("await tools.nope.x({})"),
        run("JSON.parse('{')"),
        run("function f(): never { return f(); }\nf()"),
        run("Error.prepareStackTrace = undefined;\nthrow new Error('plain V8 stack')"),
      ]);
      for (const result of results) {
        assert.ok(result.error, "each program fails");
        assert.doesNotMatch(result.error.stack ?? "", HOST_MARKERS);
        assert.doesNotMatch(result.error.message, HOST_MARKERS);
      }
    });

    it("cannot reach the host through the bridge with names outside its namespace", async () => {
      const calls = defaultBridge.calls.length;
      const result = await run("await (tools as any)['my-server']['../../etc']({})");
      assert.equal(result.error?.name, "TypeError");
      assert.equal(defaultBridge.calls.length, calls);
    });
  });

  describe(`${label}: results`, () => {
    it("returns the value of a top-level return", async () => {
      const result = await run("const x = 20;\nreturn x * 2 + 2;");
      assert.equal(result.error, undefined);
      assert.equal(result.result, 42);
      assert.ok(result.durationMs > 0);
    });

    it("returns the value of the last expression statement", async () => {
      assert.equal((await run("const x: number = 1; x + 1")).result, 2);
      assert.deepEqual((await run("const o = { a: [1, 'two'] };\no")).result, { a: [1, "two"] });
    });

    it("supports top-level await", async () => {
      const result = await run(
        "const v = await Promise.resolve(5);\nawait new Promise((r) => r(null));\nv * 3",
      );
      assert.equal(result.result, 15);
    });

    it("returns undefined when nothing is returned", async () => {
      const result = await run("const x = 1;");
      assert.equal(result.error, undefined);
      assert.equal("result" in result, false);
    });

    it("reports a non-serializable result as a runtime error", async () => {
      const result = await run("return { f() {} };");
      assert.equal(result.error?.kind, "runtime");
      assert.match(
        result.error?.message ?? "",
        /returned value must be JSON-serializable.*result\.f is a function/,
      );
      const big = await run("return 10n;");
      assert.match(big.error?.message ?? "", /BigInt/);
    });

    it("copies the context in as JSON", async () => {
      const result = await run("context.user.name + ':' + context.n", {
        context: { user: { name: "ada" }, n: 3 },
      });
      assert.equal(result.result, "ada:3");
    });
  });

  describe(`${label}: console`, () => {
    it("captures every level in order, formatting like console", async () => {
      const result = await run(
        [
          "console.log('plain', 1, true, null, undefined);",
          "console.info({ a: [1, 2] });",
          "console.warn(5n, Symbol('s'), function named() {});",
          "console.error(new Error('bad'));",
          "console.debug(new Map([[1, 2]]));",
          "const cyc: any = { name: 'c' }; cyc.self = cyc; console.log(cyc);",
        ].join("\n"),
      );
      assert.deepEqual(
        result.logs.map((entry) => entry.level),
        ["log", "info", "warn", "error", "debug", "log"],
      );
      assert.equal(result.logs[0]?.message, "plain 1 true null undefined");
      assert.equal(result.logs[1]?.message, '{"a":[1,2]}');
      assert.equal(result.logs[2]?.message, "5n Symbol(s) [Function: named]");
      assert.match(result.logs[3]?.message ?? "", /^Error: bad/);
      assert.equal(result.logs[4]?.message, '{"[Map]":[[1,2]]}');
      assert.equal(result.logs[5]?.message, '{"name":"c","self":"[Circular]"}');
    });

    it("caps the total size and marks the cut", async () => {
      const result = await run("for (let i = 0; i < 10000; i++) console.log('line ' + i);\nreturn 'done';", {
        maxLogBytes: 100,
      });
      assert.equal(result.result, "done");
      assert.equal(result.logsTruncated, true);
      const kept = result.logs.slice(0, -1);
      assert.ok(kept.length > 5 && kept.length < 20);
      assert.equal(kept[0]?.message, "line 0");
      assert.match(result.logs.at(-1)?.message ?? "", /truncated/);
      const bytes = kept.reduce((sum, entry) => sum + Buffer.byteLength(entry.message) + 1, 0);
      assert.ok(bytes <= 100);
    });
  });

  describe(`${label}: tools`, () => {
    it("calls tools by identifier and by original name", async () => {
      const bridge = new FakeBridge({ "my-server/get-sum": (args) => (args as { a: number }).a + 1 });
      const result = await run(
        "const a = await tools.my_server.get_sum({ a: 1 });\nconst b = await tools['my-server']['get-sum']({ a: 10 });\n[a, b, tools.my_server.get_sum === tools['my-server']['get-sum'], Object.keys(tools), Object.keys(tools.my_server)]",
        { bridge },
      );
      assert.deepEqual(result.result, [2, 11, true, ["my_server"], ["get_sum"]]);
      assert.equal(result.toolResultBytes, 3, "the JSON of 2 and 11 entered the sandbox");
      assert.deepEqual(
        bridge.calls.map((call) => [call.server, call.tool, call.args]),
        [
          ["my-server", "get-sum", { a: 1 }],
          ["my-server", "get-sum", { a: 10 }],
        ],
      );
    });

    it("runs 50 calls in parallel with Promise.all", async () => {
      let inFlight = 0;
      let maxInFlight = 0;
      const bridge = new FakeBridge({
        "math/double": async (args) => {
          inFlight += 1;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 5));
          inFlight -= 1;
          return (args as { n: number }).n * 2;
        },
      });
      const result = await run(
        "const ns = Array.from({ length: 50 }, (_, i) => i);\nawait Promise.all(ns.map((n) => tools.math.double({ n })))",
        { bridge },
      );
      assert.deepEqual(
        result.result,
        Array.from({ length: 50 }, (_, i) => i * 2),
      );
      assert.equal(bridge.calls.length, 50);
      assert.ok(maxInFlight > 1, `calls overlapped (max ${maxInFlight})`);
    });

    it("passes no arguments as {} and tool results of any JSON shape", async () => {
      const result = await run("[await tools.my_server.echo(), await tools.other.nothing({})]");
      assert.deepEqual(result.result, [{}, null]);
    });

    it("throws a catchable ToolError with code and data", async () => {
      const result = await run(
        "try { await tools.my_server.fail({}); return 'no'; } catch (e) {\n  return [e instanceof ToolError, e instanceof Error, e.name, e.message, e.code, e.data];\n}",
      );
      assert.deepEqual(result.result, [
        true,
        true,
        "ToolError",
        "upstream said no",
        "tool.failed",
        { content: "no" },
      ]);
    });

    it("maps PolicyError, ValidationError and other host errors", async () => {
      const result = await run(
        [
          "const out = [];",
          "try { await tools.my_server.deny({}); } catch (e) { out.push(e instanceof PolicyError, e.code); }",
          "try { await tools.my_server.invalid({}); } catch (e) { out.push(e instanceof ValidationError, e.data); }",
          "try { await tools.my_server.weird({}); } catch (e) { out.push(e instanceof ToolError, e instanceof Error, e.name, e.code); }",
          "out",
        ].join("\n"),
      );
      assert.deepEqual(result.result, [
        true,
        "policy.denied",
        true,
        { path: "a" },
        false,
        true,
        "RateLimitError",
        "rate",
      ]);
    });

    it("reports an uncaught ToolError with kind tool, and PolicyError with kind policy", async () => {
      const tool = await run("const x = 1;\nawait tools.my_server.fail({ x });");
      assert.equal(tool.error?.kind, "tool");
      assert.equal(tool.error?.name, "ToolError");
      assert.equal(tool.error?.code, "tool.failed");
      assert.deepEqual(tool.error?.data, { content: "no" });
      assert.equal(tool.error?.line, 2);
      const policy = await run("await tools.my_server.deny({});");
      assert.equal(policy.error?.kind, "policy");
    });

    it("names close matches for an unknown tool or server", async () => {
      const tool = await run("await tools.my_server.get_summ({});");
      assert.equal(tool.error?.name, "TypeError");
      assert.match(
        tool.error?.message ?? "",
        /Unknown tool tools\.my_server\.get_summ\. Did you mean: get_sum/,
      );
      const server = await run("await tools.my_srever.get_sum({});");
      assert.match(server.error?.message ?? "", /Unknown server tools\.my_srever\. Did you mean: my_server/);
    });

    it("ranks unknown names with the host's closeMatches (one implementation, bundled into the prelude)", async () => {
      const probes = ["get_summ", "GET-SUM", "ech", "", "x", "fial", "get_sum".repeat(40), "echo".repeat(60)];
      const result = await run(
        [
          "const names = Object.getOwnPropertyNames(tools.my_server);",
          `const messages = ${JSON.stringify(probes)}.map((probe) => {`,
          "  try {",
          "    return String((tools.my_server as any)[probe]);",
          "  } catch (error) {",
          "    return (error as Error).message;",
          "  }",
          "});",
          "return { names, messages };",
        ].join("\n"),
      );
      assert.equal(result.error, undefined, result.error?.message);
      const { names, messages } = result.result as { names: string[]; messages: string[] };
      probes.forEach((probe, index) => {
        const matches = closeMatches(probe, names);
        const hint =
          matches.length > 0 ? ` Did you mean: ${matches.join(", ")}?` : ` Known: ${names.join(", ")}.`;
        assert.equal(
          messages[index],
          `Unknown tool tools.my_server.${probe}.${hint} Use searchTools() to find tools.`,
          `probe ${JSON.stringify(probe).slice(0, 40)}`,
        );
      });
    });

    it("keeps using the built-ins it captured when agent code replaces them", async () => {
      const calls = defaultBridge.calls.length;
      const result = await run(
        [
          "JSON.stringify = () => '{\"forged\":true}';",
          "JSON.parse = () => ({ forged: true });",
          "Object.defineProperty = () => { throw new Error('tampered'); };",
          "Array.isArray = () => false;",
          "Object.keys = () => [];",
          "const sum = await tools.my_server.get_sum({ a: 2, b: 3 });",
          "console.log({ logged: [1, 2] });",
          "return { sum, list: [1, 2] };",
        ].join("\n"),
      );
      assert.equal(result.error, undefined, result.error?.message);
      assert.deepEqual(defaultBridge.calls[calls]?.args, { a: 2, b: 3 });
      assert.deepEqual(result.result, { sum: { sum: 5 }, list: [1, 2] });
      assert.deepEqual(
        result.logs.map((entry) => entry.message),
        ['{"logged":[1,2]}'],
      );
    });

    it("rejects non-serializable arguments inside the sandbox without calling the host", async () => {
      const bridge = new FakeBridge({ "s/t": () => "called" });
      const result = await run(
        [
          "const errors = [];",
          "for (const args of [{ f() {} }, { n: 1n }, (() => { const c: any = {}; c.c = c; return c; })(), { m: new Map() }]) {",
          "  try { await tools.s.t(args); } catch (e) { errors.push(e instanceof TypeError ? e.message : 'other'); }",
          "}",
          "errors",
        ].join("\n"),
        { bridge },
      );
      const messages = result.result as string[];
      assert.equal(messages.length, 4);
      assert.match(
        messages[0] ?? "",
        /arguments of tools\.s\.t\(\) must be JSON-serializable, but args\.f is a function/,
      );
      assert.match(messages[1] ?? "", /args\.n is a BigInt/);
      assert.match(messages[2] ?? "", /args\.c is a circular reference/);
      assert.match(messages[3] ?? "", /args\.m is a Map/);
      assert.equal(bridge.calls.length, 0);
    });

    it("offers searchTools only when the bridge can search", async () => {
      const queries: unknown[] = [];
      const bridge = new FakeBridge({}, async (query, limit, minScore) => {
        queries.push([query, limit, minScore]);
        return [{ path: "tools.a.b", score: 1 }];
      });
      const found = await run("await searchTools('add numbers', 3)", { bridge });
      assert.deepEqual(found.result, [{ path: "tools.a.b", score: 1 }]);
      assert.deepEqual(queries, [["add numbers", 3, undefined]]);
      const absent = await run("typeof searchTools");
      assert.equal(absent.result, "undefined");
    });
  });

  describe(`${label}: errors`, () => {
    it("reports a runtime error with a stack in the agent's lines and no host paths", async () => {
      const result = await run("const a = 1;\nconst b: number = 2;\nthrow new Error('boom ' + (a + b));");
      assert.equal(result.error?.kind, "runtime");
      assert.equal(result.error?.message, "boom 3");
      assert.equal(result.error?.line, 3);
      assert.match(result.error?.stack ?? "", /agent\.ts:3:/);
      assert.doesNotMatch(result.error?.stack ?? "", /\/work\/|node_modules|toolscript:|isolated-vm/);
    });

    it("maps frames of nested functions", async () => {
      const result = await run("function inner(o: any) {\n  return o.missing.field;\n}\n\ninner({});");
      assert.equal(result.error?.name, "TypeError");
      assert.equal(result.error?.line, 2);
      assert.match(result.error?.stack ?? "", /at inner \(agent\.ts:2:\d+\)\n\s+at agent\.ts:5:\d+/);
    });

    it("reports thrown non-errors", async () => {
      const result = await run("throw { reason: 'x' };");
      assert.equal(result.error?.kind, "runtime");
      assert.equal(result.error?.message, 'Uncaught {"reason":"x"}');
    });

    it("reports a syntax error V8 finds in raw code with its line", async () => {
      const result = await runtime.run({
        code: "const a = 1;\nlet let = 2;",
        tools: {},
        bridge: defaultBridge,
        timeoutMs: 1_000,
        memoryMb: 64,
        maxLogBytes: 1_000,
      });
      assert.equal(result.error?.kind, "syntax");
      assert.equal(result.error?.line, 2);
    });
  });

  describe(`${label}: web globals and error classes, the same on every tier`, () => {
    it("has every global of the one definition", async () => {
      const bridge = new FakeBridge({}, async () => []);
      const names = SANDBOX_GLOBALS.map((global) => global.name);
      const result = await run(
        `return ${JSON.stringify(names)}.filter((name) => typeof (globalThis as any)[name] === "undefined");`,
        {
          bridge,
        },
      );
      assert.deepEqual(result.result, []);
    });

    it("parses URLs, with searchParams kept in step", async () => {
      const result = await run(
        [
          'const u = new URL("../c/d?q=a+b&q=%C3%A9&x#frag", "https://User:pw@Example.COM:443/a/b");',
          "const before = [u.href, u.origin, u.host, u.pathname, u.search, u.hash, u.username, u.searchParams.getAll('q')];",
          'u.searchParams.set("x", "1 & 2");',
          'u.searchParams.append("n", "é");',
          "const params = new URLSearchParams({ a: '1', b: 'two words' });",
          "params.sort();",
          "let invalid = '';",
          "try { new URL('no scheme'); } catch (e) { invalid = e instanceof TypeError ? 'TypeError' : String(e); }",
          "return [before, u.href, params.toString(), [...params.keys()], invalid, URL.canParse('http://[::1]:80/')];",
        ].join("\n"),
      );
      assert.equal(result.error, undefined, result.error?.message);
      assert.deepEqual(result.result, [
        [
          "https://User:pw@example.com/c/d?q=a+b&q=%C3%A9&x#frag",
          "https://example.com",
          "example.com",
          "/c/d",
          "?q=a+b&q=%C3%A9&x",
          "#frag",
          "User",
          ["a b", "é"],
        ],
        "https://User:pw@example.com/c/d?q=a+b&q=%C3%A9&x=1+%26+2&n=%C3%A9#frag",
        "a=1&b=two+words",
        ["a", "b"],
        "TypeError",
        true,
      ]);
    });

    it("encodes and decodes UTF-8, non-ASCII and invalid bytes included", async () => {
      const result = await run(
        [
          "const bytes = new TextEncoder().encode('aé€😀');",
          "const decoder = new TextDecoder();",
          "const split = decoder.decode(new Uint8Array([0xe2, 0x82]), { stream: true }) + decoder.decode(new Uint8Array([0xac]));",
          "let fatal = '';",
          "try { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xff])); } catch (e) { fatal = e.name; }",
          "return [Array.from(bytes), new TextDecoder().decode(bytes), split, new TextDecoder().decode(new Uint8Array([0x61, 0xff, 0x62])), fatal];",
        ].join("\n"),
      );
      assert.deepEqual(result.result, [
        [0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80],
        "aé€😀",
        "€",
        "a�b",
        "TypeError",
      ]);
    });

    it("has atob and btoa, throwing InvalidCharacterError on bad input", async () => {
      const result = await run(
        [
          "const out = [btoa('hello\u00ff'), atob('aGVsbG//'), atob(' aGk '), atob('aGk')];",
          "for (const bad of [() => atob('a'), () => atob('@@@@'), () => btoa('€')]) {",
          "  try { bad(); out.push('no error'); } catch (e) { out.push([e.name, e instanceof DOMException, e instanceof Error]); }",
          "}",
          "return out;",
        ].join("\n"),
      );
      assert.deepEqual(result.result, [
        "aGVsbG//",
        "helloÿ",
        "hi",
        "hi",
        ["InvalidCharacterError", true, true],
        ["InvalidCharacterError", true, true],
        ["InvalidCharacterError", true, true],
      ]);
    });

    it("structuredClone copies Maps, Sets, Dates, typed arrays and cycles, and refuses functions", async () => {
      const result = await run(
        [
          "const shared = { n: 1 };",
          "const source: any = { map: new Map([['k', shared]]), set: new Set([1, 2]), date: new Date(86400000), bytes: new Uint8Array([1, 2]), again: shared };",
          "source.self = source;",
          "const copy = structuredClone(source);",
          "let refused = '';",
          "try { structuredClone({ f() {} }); } catch (e) { refused = e.name; }",
          "return [copy !== source, copy.self === copy, copy.map instanceof Map, copy.map.get('k') === copy.again, copy.map.get('k') !== shared,",
          "  [...copy.set], copy.date instanceof Date, copy.date.getTime(), copy.bytes instanceof Uint8Array, Array.from(copy.bytes), refused];",
        ].join("\n"),
      );
      assert.deepEqual(result.result, [
        true,
        true,
        true,
        true,
        true,
        [1, 2],
        true,
        86400000,
        true,
        [1, 2],
        "DataCloneError",
      ]);
    });

    it("crypto gives v4 UUIDs and fills arrays with random bytes, at most 65,536 at a time", async () => {
      const result = await run(
        [
          "const uuids = new Set(Array.from({ length: 100 }, () => crypto.randomUUID()));",
          "const pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;",
          "const bytes = new Uint8Array(65536);",
          "const same = crypto.getRandomValues(bytes) === bytes;",
          "const distinct = new Set(bytes).size;",
          "const words = crypto.getRandomValues(new Uint32Array(4));",
          "let tooMany = '';",
          "try { crypto.getRandomValues(new Uint8Array(65537)); } catch (e) { tooMany = e.name; }",
          "return [uuids.size, [...uuids].every((u) => pattern.test(u)), same, distinct > 200, words.length, tooMany];",
        ].join("\n"),
      );
      assert.deepEqual(result.result, [100, true, true, true, 4, "QuotaExceededError"]);
    });

    it("has every documented error class; a LimitError from maxToolCalls is instanceof LimitError", async () => {
      const catalog = new Catalog(["srv"]);
      catalog.setServerTools("srv", [{ name: "ping", inputSchema: { type: "object" } }]);
      const { bridge } = createExecutionBridge({
        catalog,
        maxToolCalls: 2,
        upstream: {
          callTool: async () => ({ content: [{ type: "text", text: "pong" }] }),
        } as unknown as Upstream,
      });
      const result = await run(
        [
          "const names = ['ToolError', 'PolicyError', 'ValidationError', 'WorkspaceError', 'LimitError', 'BusyError'];",
          "const classes = names.map((name) => { const C = (globalThis as any)[name]; const e = new C('m', { code: 'c', data: 1 }); return [typeof C, e instanceof Error, e.name, e.code, e.data]; });",
          "const answers = [await tools.srv.ping({}), await tools.srv.ping({})];",
          "try { await tools.srv.ping({}); return 'no limit'; } catch (e) {",
          "  return [classes, answers, e instanceof LimitError, e instanceof ToolError, e.name, e.code, e.data];",
          "}",
        ].join("\n"),
        { bridge, tools: { srv: { server: "srv", tools: { ping: "ping" } } } },
      );
      assert.equal(result.error, undefined, result.error?.message);
      const [classes, answers, ...limit] = result.result as unknown[];
      assert.deepEqual(
        classes,
        ["ToolError", "PolicyError", "ValidationError", "WorkspaceError", "LimitError", "BusyError"].map(
          (name) => ["function", true, name, "c", 1],
        ),
      );
      assert.deepEqual(answers, ["pong", "pong"]);
      assert.deepEqual(limit, [true, false, "LimitError", "limit.tool_calls", { limit: 2 }]);
    });
  });

  describe(`${label}: huge values stay in the sandbox`, () => {
    const HUNDRED_MIB = 100 * 1024 * 1024;

    it("cuts a 100 MiB error message, its stack and a thrown string before they leave the sandbox", async () => {
      const options = { memoryMb: 512, timeoutMs: 30_000 };
      for (const source of [
        "throw new Error('x'.repeat(100 * 1024 * 1024));",
        "throw 'x'.repeat(100 * 1024 * 1024);",
        // Tampering with the intrinsics the cut relies on only breaks the agent's own run.
        "String.prototype.slice = function () { return String(this); };\nthrow new Error('x'.repeat(100 * 1024 * 1024));",
      ]) {
        const result = await run(source, options);
        assert.equal(result.error?.kind, "runtime", source);
        const { message, stack } = result.error ?? { message: "" };
        assert.ok(message.length <= MAX_REPORT_CHARS + 100, `message of ${message.length} characters`);
        assert.match(message, /… \(\d+ more characters\)$/);
        const more = Number(/\((\d+) more characters\)/.exec(message)?.[1]);
        assert.ok(more >= HUNDRED_MIB - MAX_REPORT_CHARS, `says ${more} more characters`);
        assert.ok(
          (stack ?? "").length <= MAX_REPORT_CHARS + 100,
          `stack of ${(stack ?? "").length} characters`,
        );
        assert.ok(JSON.stringify(result).length < 4 * MAX_REPORT_CHARS, "the whole result stays small");
      }
    });

    it("cuts a 100 MiB log string to the log cap inside the sandbox, saying how long it was", async () => {
      const result = await run(
        "console.log('start');\nconsole.log('x'.repeat(100 * 1024 * 1024));\nconsole.log('after');\nreturn 1;",
        { memoryMb: 512, timeoutMs: 30_000, maxLogBytes: 65_536 },
      );
      assert.equal(result.result, 1);
      assert.equal(result.logs[0]?.message, "start");
      const cut = result.logs[1]?.message ?? "";
      assert.ok(cut.length > 60_000 && cut.length <= 65_536, `kept ${cut.length} characters`);
      assert.match(cut, /… \(\d+ more characters\)$/);
      const more = Number(/\((\d+) more characters\)/.exec(cut)?.[1]);
      assert.equal(more + cut.indexOf("…"), HUNDRED_MIB);
      assert.equal(result.logsTruncated, true);
      assert.match(result.logs[2]?.message ?? "", /logs truncated/);
      assert.equal(result.logs.length, 3, "nothing after the cut");
      const bytes = result.logs
        .slice(0, 2)
        .reduce((sum, entry) => sum + Buffer.byteLength(entry.message) + 1, 0);
      assert.ok(bytes <= 65_536, `${bytes} bytes of logs`);
    });

    it("returns a 30 MiB value near the memory limit as a LimitError, leaving the host running", async () => {
      const result = await run("return 'w'.repeat(30 * 1024 * 1024);", { maxOutputBytes: 4 * 1024 * 1024 });
      // The value and its JSON fill a 64 MB heap: a tier may run out of memory first, never take the host down.
      if (result.error?.kind === "memory") assert.equal(result.error.name, "MemoryError");
      else assert.equal(result.error?.code, "limit.output_bytes");
      assert.equal((await run("return 1;")).result, 1);
      const roomy = await run("return 'w'.repeat(30 * 1024 * 1024);", {
        memoryMb: 256,
        maxOutputBytes: 4 * 1024 * 1024,
      });
      assert.equal(roomy.error?.code, "limit.output_bytes");
    });

    it("measures a returned value over maxOutputBytes inside the sandbox and returns only its size", async () => {
      const result = await run("return 'é'.repeat(3 * 1024 * 1024);", {
        memoryMb: 256,
        timeoutMs: 30_000,
        maxOutputBytes: 1024 * 1024,
      });
      assert.equal("result" in result, false);
      assert.equal(result.error?.name, "LimitError");
      assert.equal(result.error?.code, "limit.output_bytes");
      // Its characters, two quotes included, counted inside: each is at least one byte.
      assert.deepEqual(result.error?.data, { limit: 1024 * 1024, characters: 3 * 1024 * 1024 + 2 });
      assert.match(result.error?.message ?? "", /3145730 characters of JSON/);
      const small = await run("return 'é'.repeat(100);", { maxOutputBytes: 1024 });
      assert.equal(small.result, "é".repeat(100));
    });
  });

  describe(`${label}: out of memory`, () => {
    it("reports a heap that grows without end as kind memory, then runs the next program", async () => {
      const result = await run("const a = []; for(;;) a.push(new Array(1e6).fill(1))", { timeoutMs: 30_000 });
      assert.equal(result.error?.kind, "memory", result.error?.message);
      assert.equal((await run("return 1 + 1;")).result, 2);
    });
  });

  describe(`${label}: workspace`, () => {
    it("reads and writes text and bytes; bytes come back as a Uint8Array", async () => {
      const bridge = Object.assign(new FakeBridge({}), { workspace: memoryWorkspace() });
      const result = await run(
        [
          'await workspace.writeFile("a.txt", "héllo ✓");',
          "const bytes = new Uint8Array([0, 1, 127, 128, 255]);",
          'await workspace.writeFile("b.bin", bytes);',
          'const back = await workspace.readFile("b.bin", "bytes");',
          'await workspace.remove("a.txt");',
          'await workspace.writeFile("c.txt", "c");',
          'return [back instanceof Uint8Array, Array.from(back), await workspace.readFile("c.txt"), (await workspace.list()).map((f) => f.path)];',
        ].join("\n"),
        { bridge },
      );
      assert.equal(result.error, undefined);
      assert.deepEqual(result.result, [true, [0, 1, 127, 128, 255], "c", ["b.bin", "c.txt"]]);
    });

    it("throws WorkspaceError instances with the host's code, and refuses bad data", async () => {
      const bridge = Object.assign(new FakeBridge({}), { workspace: memoryWorkspace() });
      const result = await run(
        [
          "const out = [];",
          'try { await workspace.readFile("nope"); } catch (e) { out.push([e instanceof WorkspaceError, e.code]); }',
          'try { await workspace.writeFile("../x", "x"); } catch (e) { out.push([e instanceof WorkspaceError, e.code]); }',
          'try { await workspace.writeFile("x", 42 as any); } catch (e) { out.push([e.name, e.message]); }',
          'try { await workspace.readFile("x", "latin1" as any); } catch (e) { out.push([e.name]); }',
          "return out;",
        ].join("\n"),
        { bridge },
      );
      assert.deepEqual(result.result, [
        [true, "workspace.not_found"],
        [true, "workspace.bad_path"],
        [
          "TypeError",
          "workspace.writeFile(path, data): data must be a string, a Uint8Array or an ArrayBuffer",
        ],
        ["TypeError"],
      ]);
    });

    it("without a workspace in the bridge, every call throws a WorkspaceError", async () => {
      const result = await run("await workspace.list()");
      assert.equal(result.error?.name, "WorkspaceError");
      assert.equal(result.error?.code, "workspace.unavailable");
    });
  });

  describe(`${label}: skills`, () => {
    const sources = {
      math: "export function double(n: number): number {\n  return n * 2;\n}\nexport interface Shape { n: number }\nexport default 'math';\n",
      caller:
        'import { double } from "skills/math";\nexport async function viaTool(a: number): Promise<number> {\n  const r = await tools["my-server"]["get-sum"]({ a, b: a });\n  return double(r.sum);\n}\n',
      ping: 'import { pong } from "skills/pong";\nexport const ping = (n: number): string => (n <= 0 ? "done" : pong(n - 1));\n',
      pong: 'import { ping } from "skills/ping";\nexport const pong = (n: number): string => ping(n - 1);\n',
      thrower: "export function fail(): never {\n  throw new Error('from skill');\n}\n",
    };

    it("imports skills that call tools and other skills, each loaded once per run", async () => {
      const loads: string[] = [];
      const bridge = Object.assign(
        new FakeBridge({
          "my-server/get-sum": (args) => {
            const { a, b } = args as { a: number; b: number };
            return { sum: a + b };
          },
        }),
        { loadSkill: skillLoader(sources, loads) },
      );
      const result = await run(
        [
          'import { viaTool } from "skills/caller";',
          'import name, { double, type Shape } from "skills/math";',
          'import * as again from "skills/caller";',
          "const shape: Shape = { n: 1 };",
          "return [await viaTool(5), double(shape.n), name, again.viaTool === viaTool];",
        ].join("\n"),
        { bridge },
      );
      assert.equal(result.error, undefined, result.error?.message);
      assert.deepEqual(result.result, [20, 2, "math", true]);
      assert.deepEqual(loads.sort(), ["caller", "math"]);
      assert.equal(bridge.calls.length, 1);
    });

    it("handles import cycles", async () => {
      const bridge = Object.assign(new FakeBridge({}), { loadSkill: skillLoader(sources, []) });
      const result = await run('import { ping } from "skills/ping";\nping(5)', { bridge });
      assert.equal(result.error, undefined, result.error?.message);
      assert.equal(result.result, "done");
    });

    it("reports a missing skill or export at the import's line, and skill frames by skill name", async () => {
      const bridge = Object.assign(new FakeBridge({}), { loadSkill: skillLoader(sources, []) });
      const none = await run('// first\nimport { x } from "skills/none";\nx', { bridge });
      assert.equal(none.error?.name, "SkillError");
      assert.equal(none.error?.code, "skill.not_found");
      assert.equal(none.error?.line, 2);
      const noExport = await run('import { triple } from "skills/math";\ntriple', { bridge });
      assert.equal(noExport.error?.name, "SyntaxError");
      assert.match(noExport.error?.message ?? "", /The skill "math" has no export named "triple"/);
      const thrown = await run('import { fail } from "skills/thrower";\n\nfail();', { bridge });
      assert.equal(thrown.error?.message, "from skill");
      assert.equal(thrown.error?.line, 3);
      assert.match(thrown.error?.stack ?? "", /skills\/thrower\.ts:\d+/);
      assert.doesNotMatch(thrown.error?.stack ?? "", /\/work\/|node_modules/);
    });
  });

  describe(`${label}: isolation between runs`, () => {
    it("does not leak globals from one run into the next", async () => {
      const first = await run(
        "(globalThis as any).leaked = 42;\nObject.prototype.polluted = 1;\nArray.prototype.push = null;\n1",
      );
      assert.equal(first.result, 1);
      for (let index = 0; index < 4; index += 1) {
        const next = await run(
          "[typeof (globalThis as any).leaked, typeof ({} as any).polluted, typeof [].push]",
        );
        assert.deepEqual(next.result, ["undefined", "undefined", "function"]);
      }
    });

    it("runs 20 executions concurrently, each with its own result", async () => {
      const bridge = new FakeBridge({
        "s/id": async (args) => {
          await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 10));
          return args;
        },
      });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          run(
            `(globalThis as any).mine = ${index};\nconst r = await tools.s.id({ index: ${index} });\n[r.index, (globalThis as any).mine]`,
            {
              bridge,
            },
          ),
        ),
      );
      results.forEach((result, index) => {
        assert.equal(result.error, undefined);
        assert.deepEqual(result.result, [index, index]);
      });
    });
  });
}
