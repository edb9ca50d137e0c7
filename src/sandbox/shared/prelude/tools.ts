/**
 * The `tools` global: one async function per tool, behind proxies that answer
 * an unknown name with a "did you mean" hint (the host's own ranking,
 * catalog/close-matches.ts), and `searchTools`.
 */
import { closeMatches } from "../../../catalog/close-matches.ts";
import {
  create,
  defineProperty,
  freeze,
  getOwnPropertyNames,
  keys,
  ProxyClass,
  TypeErrorClass,
} from "./intrinsics.ts";
import { fromReply, REPLY, toJson } from "./json-boundary.ts";
import { run } from "./run-state.ts";

/** The run's tools as the host hands them in: sandbox names -> upstream names. */
export type ToolNamespaceJson = Record<string, { server: string; tools: Record<string, string> }>;

type ToolFunction = (args?: unknown) => Promise<unknown>;

function unknownName(what: string, label: string, name: string, candidates: string[]): TypeError {
  const matches = closeMatches(name, candidates);
  const hint =
    matches.length > 0
      ? " Did you mean: " + matches.join(", ") + "?"
      : " Known: " + candidates.slice(0, 20).join(", ") + (candidates.length > 20 ? ", ..." : "") + ".";
  return new TypeErrorClass(
    "Unknown " + what + " " + label + "." + hint + " Use searchTools() to find tools.",
  );
}

// Read by `await` and JSON.stringify: they must not throw on an object that lacks them.
const PASSTHROUGH: Record<string, boolean> = create(null);
// biome-ignore lint/suspicious/noThenProperty: a flag for `then`, not a thenable
PASSTHROUGH.then = true;
PASSTHROUGH.toJSON = true;

function guard<T extends object>(target: T, onUnknown: (key: string) => TypeError): T {
  return new ProxyClass(target, {
    get(object, key) {
      if (typeof key === "symbol" || key in object || PASSTHROUGH[key] === true)
        return (object as Record<string | symbol, unknown>)[key];
      throw onUnknown(key);
    },
  });
}

function makeTool(server: string, tool: string, label: string): ToolFunction {
  const call = async (args?: unknown) => {
    const json = toJson(args === undefined ? {} : args, "The arguments of " + label + "()", "args");
    return fromReply(await run.call!.apply(undefined, [server, tool, json], REPLY));
  };
  defineProperty(call, "name", { value: label });
  return call;
}

// Original names work but stay out of Object.keys(), which lists each tool once.
function alias(object: object, name: string, value: unknown): void {
  defineProperty(object, name, { value, enumerable: false });
}

/** The `tools` global for this run's namespace. */
export function buildTools(namespace: ToolNamespaceJson): object {
  const servers: Record<string, object> = create(null);
  const serverIds = keys(namespace);
  for (const serverId of serverIds) {
    const entry = namespace[serverId]!;
    const functions: Record<string, ToolFunction> = create(null);
    const toolIds = keys(entry.tools);
    for (const toolId of toolIds) {
      functions[toolId] = makeTool(entry.server, entry.tools[toolId]!, "tools." + serverId + "." + toolId);
    }
    for (const toolId of toolIds) {
      if (!(entry.tools[toolId]! in functions)) alias(functions, entry.tools[toolId]!, functions[toolId]);
    }
    const names = getOwnPropertyNames(functions);
    servers[serverId] = guard(freeze(functions), (key) =>
      unknownName("tool", "tools." + serverId + "." + key, key, names),
    );
  }
  for (const serverId of serverIds) {
    const server = namespace[serverId]!.server;
    if (!(server in servers)) alias(servers, server, servers[serverId]);
  }
  const names = getOwnPropertyNames(servers);
  return guard(freeze(servers), (key) => unknownName("server", "tools." + key, key, names));
}

export async function searchTools(query: unknown, limit?: unknown, minScore?: unknown): Promise<unknown> {
  if (typeof query !== "string")
    throw new TypeErrorClass("searchTools(query, limit?, minScore?): query must be a string");
  if (limit !== undefined && typeof limit !== "number")
    throw new TypeErrorClass("searchTools: limit must be a number");
  if (minScore !== undefined && typeof minScore !== "number")
    throw new TypeErrorClass("searchTools: minScore must be a number");
  return fromReply(await run.search!.apply(undefined, [query, limit, minScore], REPLY));
}
