/**
 * The code that runs first in every isolate, before any agent code. It
 * installs the sandbox globals (`console`, the error classes) and evaluates to
 * the `start` function the host calls once per execution with that run's host
 * functions, tool namespace and context. Everything the host hands in stays in
 * this closure; the agent only ever sees wrappers that move JSON strings.
 *
 * It captures the intrinsics it relies on up front, so agent code that
 * replaces `JSON` or `Object` only breaks its own run.
 */

import { BUNDLE_GLOBAL_NAME } from "../shared/globals/bundle-name.ts";
import { SANDBOX_GLOBALS as SANDBOX_GLOBAL_DEFINITIONS } from "../shared/globals/catalog.ts";
import { SANDBOX_GLOBALS_SOURCE } from "./sandbox-globals.generated.ts";

/** File name of the prelude in isolate stacks; its frames are stripped from reports. */
export const PRELUDE_FILE_NAME = "toolscript:prelude";

/**
 * Longest string of an error report (message, stack, name, code, thrown value)
 * copied out of the sandbox; the rest is cut inside it, with a note of its length.
 */
export const MAX_REPORT_CHARS = 16 * 1024;

/** Globals the prelude removes: no use to agents, and extra attack surface (wasm JIT, shared memory). */
export const REMOVED_GLOBALS = ["WebAssembly", "SharedArrayBuffer", "Atomics"] as const;

/** Name of the function compiled `import ... from "skills/<name>"` declarations call (compile/skill-imports.ts). */
export const SKILL_IMPORT_FUNCTION = "__toolscript_import";

/** Skills run as scripts named `skills/<name>.ts` in stacks. */
export const SKILL_FILE_PREFIX = "skills/";

/** Globals the sandbox adds to the standard built-ins (`searchTools` only when the bridge offers search). */
export const SANDBOX_GLOBALS: readonly string[] = [
  ...SANDBOX_GLOBAL_DEFINITIONS.map((global) => global.name),
  SKILL_IMPORT_FUNCTION,
];

/** The `workspace` global (bytes as base64 over the bridge) and skill modules; spliced into the prelude below. */
const WORKSPACE_AND_SKILLS = `
  // ---- host operations: the workspace and skills ----
  async function hostOperation(name, args) {
    return fromReply(await hostOp.apply(undefined, [name, stringify(args)], REPLY));
  }
  const BASE64 = [];
  const BASE64_VALUES = new Uint8ArrayClass(128);
  for (let index = 0; index < 64; index += 1) {
    const code = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".charCodeAt(index);
    BASE64.push(code);
    BASE64_VALUES[code] = index;
  }
  // Chunks a multiple of 3 bytes long, so only the last one has padding.
  const BASE64_CHUNK = 3 * 8192;
  const BASE64_CODES = new Uint16ArrayClass((BASE64_CHUNK / 3) * 4);
  function toBase64(bytes) {
    const parts = [];
    const length = bytes.length;
    const codes = BASE64_CODES;
    for (let start = 0; start < length; start += BASE64_CHUNK) {
      const end = start + BASE64_CHUNK < length ? start + BASE64_CHUNK : length;
      let at = start;
      let written = 0;
      for (; at + 2 < end; at += 3) {
        const n = (bytes[at] << 16) | (bytes[at + 1] << 8) | bytes[at + 2];
        codes[written] = BASE64[n >> 18];
        codes[written + 1] = BASE64[(n >> 12) & 63];
        codes[written + 2] = BASE64[(n >> 6) & 63];
        codes[written + 3] = BASE64[n & 63];
        written += 4;
      }
      if (at < end) {
        const two = at + 1 < end;
        const n = (bytes[at] << 16) | (two ? bytes[at + 1] << 8 : 0);
        codes[written] = BASE64[n >> 18];
        codes[written + 1] = BASE64[(n >> 12) & 63];
        codes[written + 2] = two ? BASE64[(n >> 6) & 63] : 61;
        codes[written + 3] = 61;
        written += 4;
      }
      parts.push(fromCharCode.apply(undefined, written === codes.length ? codes : codes.subarray(0, written)));
    }
    return parts.join("");
  }
  function fromBase64(text) {
    let length = text.length;
    while (length > 0 && text.charCodeAt(length - 1) === 61) length -= 1;
    const out = new Uint8ArrayClass((length * 3) >> 2);
    let written = 0;
    let at = 0;
    for (; at + 3 < length; at += 4) {
      const n = (BASE64_VALUES[text.charCodeAt(at)] << 18) | (BASE64_VALUES[text.charCodeAt(at + 1)] << 12) |
        (BASE64_VALUES[text.charCodeAt(at + 2)] << 6) | BASE64_VALUES[text.charCodeAt(at + 3)];
      out[written] = n >> 16;
      out[written + 1] = (n >> 8) & 255;
      out[written + 2] = n & 255;
      written += 3;
    }
    const rest = length - at;
    if (rest >= 2) {
      const n = (BASE64_VALUES[text.charCodeAt(at)] << 18) | (BASE64_VALUES[text.charCodeAt(at + 1)] << 12) |
        (rest === 3 ? BASE64_VALUES[text.charCodeAt(at + 2)] << 6 : 0);
      out[written] = n >> 16;
      if (rest === 3) out[written + 1] = (n >> 8) & 255;
    }
    return out;
  }
  const workspaceObject = {
    async readFile(path, encoding) {
      if (encoding !== undefined && encoding !== "utf8" && encoding !== "bytes") {
        throw new TypeErrorClass('workspace.readFile(path, encoding?): encoding must be "utf8" or "bytes"');
      }
      const bytes = encoding === "bytes";
      const value = await hostOperation("workspace.readFile", { path, encoding: bytes ? "bytes" : "utf8" });
      return bytes ? fromBase64(value.base64) : value.text;
    },
    async writeFile(path, data) {
      let payload;
      if (typeof data === "string") payload = { path, text: data };
      else if (data instanceof Uint8ArrayClass) payload = { path, base64: toBase64(data) };
      else if (data instanceof ArrayBufferClass) payload = { path, base64: toBase64(new Uint8ArrayClass(data)) };
      else throw new TypeErrorClass("workspace.writeFile(path, data): data must be a string, a Uint8Array or an ArrayBuffer");
      return hostOperation("workspace.writeFile", payload);
    },
    async list(prefix) {
      return hostOperation("workspace.list", prefix === undefined ? {} : { prefix });
    },
    async remove(path) {
      await hostOperation("workspace.remove", { path });
    },
  };
  define("workspace", freeze(workspaceObject));

  // ---- skills: CommonJS-style bodies, their imports loaded first; each runs once per execution ----
  const SKILL_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
  function requireSkill(specifier) {
    const name = typeof specifier === "string" && specifier.startsWith("${SKILL_FILE_PREFIX}")
      ? specifier.slice(${SKILL_FILE_PREFIX.length})
      : undefined;
    const entry = name === undefined ? undefined : skillModules.get(name);
    if (entry === undefined) {
      throw new ErrorClass("Cannot find module " + stringify(StringOf(specifier)) + ': skills import only "skills/<name>"');
    }
    return entry.module.exports;
  }
  function startSkill(name) {
    const entry = { module: {}, ready: undefined, typeExports: [] };
    // esbuild's CommonJS output replaces module.exports once it is built; its properties are copied onto the
    // first exports object instead, which a skill in an import cycle may already hold.
    let exported = {};
    const first = exported;
    defineProperty(entry.module, "exports", {
      get() {
        return exported;
      },
      set(value) {
        if (value !== null && typeof value === "object" && exported === first) defineProperties(first, getOwnPropertyDescriptors(value));
        else exported = value;
      },
    });
    skillModules.set(name, entry);
    entry.ready = (async function () {
      const loaded = await hostOperation("skill.load", { name });
      if (isArray(loaded.typeExports)) entry.typeExports = loaded.typeExports;
      for (const dependency of loaded.imports) {
        // One already started is either done or up this chain (a cycle): it is not awaited, as in CommonJS.
        if (!skillModules.has(dependency)) await startSkill(dependency).ready;
      }
      const body = indirectEval("(function (exports, require, module) {" + loaded.js + "\\n})\\n//# sourceURL=${SKILL_FILE_PREFIX}" + name + ".ts");
      body.call(undefined, entry.module.exports, requireSkill, entry.module);
      return entry.module.exports;
    })();
    return entry;
  }
  async function importSkill(name, names) {
    if (typeof name !== "string" || !SKILL_NAME.test(name)) {
      throw new TypeErrorClass("Invalid skill name " + stringify(StringOf(name)));
    }
    const entry = skillModules.get(name) ?? startSkill(name);
    const exported = await entry.ready;
    if (isArray(names)) {
      for (const wanted of names) {
        if (entry.typeExports.includes(wanted)) continue;
        if (exported === null || (typeof exported !== "object" && typeof exported !== "function") || !(wanted in exported)) {
          throw new SyntaxErrorClass("The skill " + stringify(name) + " has no export named " + stringify(StringOf(wanted)));
        }
      }
    }
    return exported;
  }
  define("${SKILL_IMPORT_FUNCTION}", importSkill);
`;

export const PRELUDE_SOURCE = `"use strict";
(function () {
  const MAX_REPORT_CHARS = ${MAX_REPORT_CHARS};
  const g = globalThis;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const { create, freeze, defineProperty, defineProperties, getOwnPropertyDescriptors, keys, getOwnPropertyNames, is } = Object;
  const isArray = Array.isArray;
  const ErrorClass = Error;
  const TypeErrorClass = TypeError;
  const ProxyClass = Proxy;
  const MapClass = Map;
  const SetClass = Set;
  const WeakSetClass = WeakSet;
  const StringOf = String;
  const SyntaxErrorClass = SyntaxError;
  const Uint8ArrayClass = Uint8Array;
  const Uint16ArrayClass = Uint16Array;
  const ArrayBufferClass = ArrayBuffer;
  const fromCharCode = String.fromCharCode;
  // Captured, so agent code that replaces String.prototype.slice cannot make the host copy a huge string.
  const callOf = Function.prototype.call;
  const sliceString = callOf.bind(String.prototype.slice);
  const indirectEval = g.eval;
  const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

  for (const name of ${JSON.stringify(REMOVED_GLOBALS)}) delete g[name];

  function define(name, value) {
    defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });
  }

  // ---- the globals defined in shared/globals/ (web standards the runtime lacks, the error classes) ----
  let hostRandom;
${SANDBOX_GLOBALS_SOURCE.replace(/^"use strict";\n/, "")}
  const installed = ${BUNDLE_GLOBAL_NAME}.installGlobals(define, () => hostRandom);
  const ToolError = installed.errors.ToolError;
  const PolicyError = installed.errors.PolicyError;
  const HOST_ERRORS = create(null);
  for (const name of keys(installed.errors)) HOST_ERRORS[name] = installed.errors[name];

  // The one run this isolate serves; set by start().
  let hostCall;
  let hostSearch;
  let hostLog;
  let hostOp;
  let logCharsLeft = 0;
  // Skills imported by this run: name -> { module, ready }.
  let skillModules = new MapClass();

  // ---- huge values are cut here, before they are copied out of the sandbox ----
  // No loop over a value's characters: JIT-compiling one in an isolate at its heap limit can end the host process.
  const ASCII_ONLY = /^[\u0000-\u007f]*$/;
  const testOf = callOf.bind(RegExp.prototype.test);
  function cutNote(total, kept) {
    return "… (" + (total - kept) + " more characters)";
  }
  /** The start of text in at most maxBytes UTF-8 bytes, note included, with how much was left out. */
  function cutToBytes(text, maxBytes) {
    const total = text.length;
    const budget = maxBytes - 40;
    // No room for a note: the log collector cuts this short start and marks the cut.
    if (budget <= 0) return sliceString(text, 0, maxBytes > 0 ? maxBytes + 1 : 1);
    let kept = sliceString(text, 0, budget);
    // Characters past ASCII take up to 3 bytes each (a surrogate pair 4 for 2).
    if (!testOf(ASCII_ONLY, kept)) kept = sliceString(text, 0, (budget / 3) | 0);
    return kept.length >= total ? text : kept + cutNote(total, kept.length);
  }
  /** A string for a report: at most MAX_REPORT_CHARS characters, noting how long it was. */
  function capReport(text) {
    return text.length <= MAX_REPORT_CHARS ? text : sliceString(text, 0, MAX_REPORT_CHARS) + cutNote(text.length, MAX_REPORT_CHARS);
  }

  // ---- console: each call is formatted here and sent as one string ----
  function inspectReplacer(seen) {
    return function (key, value) {
      switch (typeof value) {
        case "bigint": return StringOf(value) + "n";
        case "function": return "[Function: " + (value.name || "(anonymous)") + "]";
        case "symbol": return value.toString();
        case "undefined": return key === "" ? "undefined" : undefined;
      }
      if (value === null || typeof value !== "object") return value;
      if (seen.has(value)) return "[Circular]";
      seen.add(value);
      if (value instanceof ErrorClass) return value.name + ": " + value.message;
      if (value instanceof MapClass) return { "[Map]": [...value.entries()] };
      if (value instanceof SetClass) return { "[Set]": [...value.values()] };
      return value;
    };
  }
  function inspect(value) {
    switch (typeof value) {
      case "string": return value;
      case "number": return is(value, -0) ? "-0" : StringOf(value);
      case "bigint": return StringOf(value) + "n";
      case "boolean": return value ? "true" : "false";
      case "undefined": return "undefined";
      case "symbol": return value.toString();
      case "function": return "[Function: " + (value.name || "(anonymous)") + "]";
    }
    if (value === null) return "null";
    try {
      if (value instanceof ErrorClass) return typeof value.stack === "string" ? value.stack : value.name + ": " + value.message;
      const text = stringify(value, inspectReplacer(new WeakSetClass()));
      return text === undefined ? StringOf(value) : text;
    } catch (error) {
      return "[unprintable object]";
    }
  }
  const consoleObject = {};
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    consoleObject[level] = function (...args) {
      if (hostLog === undefined || logCharsLeft < 0) return;
      let message = "";
      for (let index = 0; index < args.length; index += 1) message += (index === 0 ? "" : " ") + inspect(args[index]);
      // Only what fits in the log budget leaves the sandbox: a 100 MB string is cut here, not copied out.
      const room = logCharsLeft - 1;
      logCharsLeft -= message.length + 1;
      hostLog(level, message.length * 3 <= room ? message : cutToBytes(message, room));
    };
  }
  define("console", freeze(consoleObject));

  // ---- only JSON crosses the boundary ----
  function pathTo(path, key) {
    return IDENTIFIER.test(key) ? path + "." + key : path + "[" + stringify(key) + "]";
  }
  function checkJson(value, path, ancestors, key, what) {
    if (value !== null && (typeof value === "object" || typeof value === "function") && typeof value.toJSON === "function") {
      value = value.toJSON(key);
    }
    let problem;
    switch (typeof value) {
      case "bigint": problem = "a BigInt (convert it with String() or Number())"; break;
      case "function": problem = "a function"; break;
      case "symbol": problem = "a symbol"; break;
      case "object":
        if (value === null) return;
        if (ancestors.includes(value)) problem = "a circular reference";
        else if (value instanceof MapClass || value instanceof SetClass) problem = "a Map or Set (convert it to an object or array)";
        break;
      default: return;
    }
    if (problem !== undefined) {
      throw new TypeErrorClass(what + " must be JSON-serializable, but " + (path || "it") + " is " + problem);
    }
    ancestors.push(value);
    if (isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        checkJson(value[index], path + "[" + index + "]", ancestors, StringOf(index), what);
      }
    } else {
      for (const name of keys(value)) checkJson(value[name], pathTo(path, name), ancestors, name, what);
    }
    ancestors.pop();
  }
  function toJson(value, what, root) {
    checkJson(value, root, [], "", what);
    return stringify(value);
  }
  function fromReply(reply) {
    if (reply.ok) return reply.json === undefined ? undefined : parse(reply.json);
    const failure = reply.error;
    const data = failure.dataJson === undefined ? undefined : parse(failure.dataJson);
    const ErrorType = HOST_ERRORS[failure.name];
    if (ErrorType !== undefined) throw new ErrorType(failure.message, { code: failure.code, data });
    const error = new ErrorClass(failure.message);
    if (failure.name !== "Error") defineProperty(error, "name", { value: failure.name, writable: true, configurable: true });
    error.code = failure.code;
    error.data = data;
    throw error;
  }
  const REPLY = { result: { promise: true, copy: true } };

  // ---- tools ----
  function normalize(name) {
    return name.toLowerCase().replace(/[^a-z0-9]/g, "");
  }
  function distance(a, b) {
    let previous = [];
    for (let j = 0; j <= b.length; j += 1) previous.push(j);
    for (let i = 1; i <= a.length; i += 1) {
      const current = [i];
      for (let j = 1; j <= b.length; j += 1) {
        current.push(Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
      }
      previous = current;
    }
    return previous[b.length];
  }
  function closeMatches(name, candidates) {
    const wanted = normalize(name);
    const scored = [];
    for (const candidate of candidates) {
      const other = normalize(candidate);
      const score = other === wanted || (wanted.length > 2 && (other.includes(wanted) || wanted.includes(other)))
        ? 0
        : distance(wanted, other);
      if (score <= Math.max(2, Math.floor(wanted.length / 3))) scored.push({ candidate, score });
    }
    scored.sort((a, b) => a.score - b.score);
    return scored.slice(0, 5).map((entry) => entry.candidate);
  }
  function unknownName(what, label, name, candidates) {
    const matches = closeMatches(name, candidates);
    const hint = matches.length > 0
      ? " Did you mean: " + matches.join(", ") + "?"
      : " Known: " + candidates.slice(0, 20).join(", ") + (candidates.length > 20 ? ", ..." : "") + ".";
    return new TypeErrorClass("Unknown " + what + " " + label + "." + hint + " Use searchTools() to find tools.");
  }
  const PASSTHROUGH = create(null);
  PASSTHROUGH.then = true;
  PASSTHROUGH.toJSON = true;
  function guard(target, onUnknown) {
    return new ProxyClass(target, {
      get(object, key) {
        if (typeof key === "symbol" || key in object || PASSTHROUGH[key] === true) return object[key];
        throw onUnknown(key);
      },
    });
  }
  function makeTool(server, tool, label) {
    const call = async (args) => {
      const json = toJson(args === undefined ? {} : args, "The arguments of " + label + "()", "args");
      return fromReply(await hostCall.apply(undefined, [server, tool, json], REPLY));
    };
    defineProperty(call, "name", { value: label });
    return call;
  }
  // Original names work but stay out of Object.keys(), which lists each tool once.
  function alias(object, name, value) {
    defineProperty(object, name, { value, enumerable: false });
  }
  function buildTools(namespace) {
    const servers = create(null);
    const serverIds = keys(namespace);
    for (const serverId of serverIds) {
      const entry = namespace[serverId];
      const functions = create(null);
      const toolIds = keys(entry.tools);
      for (const toolId of toolIds) {
        functions[toolId] = makeTool(entry.server, entry.tools[toolId], "tools." + serverId + "." + toolId);
      }
      for (const toolId of toolIds) {
        if (!(entry.tools[toolId] in functions)) alias(functions, entry.tools[toolId], functions[toolId]);
      }
      const names = getOwnPropertyNames(functions);
      servers[serverId] = guard(freeze(functions), (key) => unknownName("tool", "tools." + serverId + "." + key, key, names));
    }
    for (const serverId of serverIds) {
      if (!(namespace[serverId].server in servers)) alias(servers, namespace[serverId].server, servers[serverId]);
    }
    const names = getOwnPropertyNames(servers);
    return guard(freeze(servers), (key) => unknownName("server", "tools." + key, key, names));
  }
  async function searchTools(query, limit, minScore) {
    if (typeof query !== "string") throw new TypeErrorClass("searchTools(query, limit?, minScore?): query must be a string");
    if (limit !== undefined && typeof limit !== "number") throw new TypeErrorClass("searchTools: limit must be a number");
    if (minScore !== undefined && typeof minScore !== "number") throw new TypeErrorClass("searchTools: minScore must be a number");
    return fromReply(await hostSearch.apply(undefined, [query, limit, minScore], REPLY));
  }

${WORKSPACE_AND_SKILLS}
  // ---- the run ----
  function describe(error) {
    try {
      if (error instanceof ErrorClass) {
        let dataJson;
        try {
          dataJson = error.data === undefined ? undefined : stringify(error.data);
        } catch (ignored) {
          dataJson = undefined;
        }
        const name = StringOf(error.name);
        const message = StringOf(error.message);
        // The stack is formatted when first read, from the message as it is then: cut first, it never holds the whole.
        if (message.length > MAX_REPORT_CHARS) {
          try {
            error.message = capReport(message);
          } catch (ignored) {
            // A frozen error keeps its message; its stack is cut below instead.
          }
        }
        const stack = typeof error.stack === "string" ? error.stack : undefined;
        return {
          kind: error instanceof ToolError ? "tool" : error instanceof PolicyError ? "policy" : "runtime",
          name: capReport(name),
          message: capReport(message),
          stack: stack === undefined ? undefined : capReport(stack),
          code: error.code === undefined ? undefined : capReport(StringOf(error.code)),
          // Cut JSON would not parse: data too large to report is left out.
          dataJson: typeof dataJson === "string" && dataJson.length <= MAX_REPORT_CHARS ? dataJson : undefined,
        };
      }
      return { kind: "runtime", name: "Error", message: "Uncaught " + capReport(inspect(error)) };
    } catch (ignored) {
      return { kind: "runtime", name: "Error", message: "Uncaught error that could not be described" };
    }
  }

  return async function start(agent, call, search, log, toolsJson, contextJson, limitsJson, op, random) {
    const limits = parse(limitsJson);
    hostRandom = random;
    hostCall = call;
    hostSearch = search;
    hostLog = log;
    hostOp = op;
    skillModules = new MapClass();
    logCharsLeft = limits.maxLogBytes;
    define("tools", buildTools(parse(toolsJson)));
    define("context", contextJson === undefined ? {} : parse(contextJson));
    if (search !== undefined) define("searchTools", searchTools);
    try {
      const value = await agent();
      if (value === undefined) return { ok: true };
      const json = toJson(value, "The returned value", "result");
      const max = limits.maxOutputBytes;
      // Each character is at least one byte: a value over the limit never leaves the sandbox, only its length does.
      // One that may still fit is at most max characters, and the host measures its bytes.
      if (typeof max === "number" && json.length > max) return { ok: true, oversizedChars: json.length };
      return { ok: true, json };
    } catch (error) {
      return { ok: false, error: describe(error) };
    }
  };
})();
`;
