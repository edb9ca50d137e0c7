import type { HostBridge, SandboxFileInfo } from "../types.ts";

/**
 * The host side of the `workspace` global and of skill imports, for both
 * tiers. Arguments come from the sandbox and are checked here; bytes cross
 * as base64 (`{ base64 }`), text as `{ text }`. Errors keep their `name`,
 * `code` and `data`, so a `WorkspaceError` is one inside the sandbox too.
 */

/** Raised when the host offers no workspace (or no skills) to this run. */
class UnavailableError extends Error {
  readonly code: string;
  constructor(name: string, code: string, message: string) {
    super(message);
    this.name = name;
    this.code = code;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fileInfo(info: SandboxFileInfo): SandboxFileInfo {
  return { path: info.path, size: info.size, mtime: info.mtime };
}

function workspaceOf(bridge: HostBridge): NonNullable<HostBridge["workspace"]> {
  if (bridge.workspace === undefined) {
    throw new UnavailableError(
      "WorkspaceError",
      "workspace.unavailable",
      "This execution has no workspace (the gateway runs without a store)",
    );
  }
  return bridge.workspace;
}

function bytesFrom(args: Record<string, unknown>): string | Uint8Array {
  if (typeof args.text === "string") return args.text;
  if (typeof args.base64 === "string") return new Uint8Array(Buffer.from(args.base64, "base64"));
  throw new TypeError("workspace.writeFile(path, data): data must be a string or a Uint8Array");
}

function resourcesOf(bridge: HostBridge): NonNullable<HostBridge["resources"]> {
  if (bridge.resources === undefined) {
    throw new UnavailableError("ToolError", "resources.unavailable", "Resources are not available here");
  }
  return bridge.resources;
}

function promptsOf(bridge: HostBridge): NonNullable<HostBridge["prompts"]> {
  if (bridge.prompts === undefined) {
    throw new UnavailableError("ToolError", "prompts.unavailable", "Prompts are not available here");
  }
  return bridge.prompts;
}

function optionalServer(input: Record<string, unknown>, what: string): string | undefined {
  if (input.server === undefined || input.server === null) return undefined;
  if (typeof input.server !== "string") throw new TypeError(`${what}: server must be a string`);
  return input.server;
}

/** Prompt arguments are strings on the wire: numbers and booleans are written out, anything else refused. */
function promptArguments(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw new TypeError("prompts.get(server, name, args?): args must be an object");
  const args: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === "string") args[key] = item;
    else if (typeof item === "number" || typeof item === "boolean") args[key] = String(item);
    else if (item !== undefined && item !== null) {
      throw new TypeError(`prompts.get: args.${key} must be a string, a number or a boolean`);
    }
  }
  return args;
}

/** Operations whose answers are upstream data, counted like tool results (sandbox.maxResultBytes). */
export function isUpstreamOperation(name: unknown): boolean {
  return typeof name === "string" && (name.startsWith("resources.") || name.startsWith("prompts."));
}

/** Runs one operation `name` with the parsed JSON `args`; the value returned is sent back as JSON. */
export async function hostOperation(
  bridge: HostBridge,
  name: unknown,
  args: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  const input = isRecord(args) ? args : {};
  switch (name) {
    case "resources.read":
      return resourcesOf(bridge).read(
        input.uri as string,
        { server: optionalServer(input, "resources.read") },
        signal,
      );
    case "resources.list":
      return resourcesOf(bridge).list(optionalServer(input, "resources.list"), signal);
    case "resources.templates":
      return resourcesOf(bridge).templates(optionalServer(input, "resources.templates"), signal);
    case "prompts.get":
      return promptsOf(bridge).get(
        input.server as string,
        input.name as string,
        promptArguments(input.args),
        signal,
      );
    case "prompts.list":
      return promptsOf(bridge).list(optionalServer(input, "prompts.list"), signal);
    case "workspace.readFile": {
      const encoding = input.encoding === "bytes" ? "bytes" : "utf8";
      const data = await workspaceOf(bridge).readFile(input.path as string, encoding);
      return typeof data === "string" ? { text: data } : { base64: Buffer.from(data).toString("base64") };
    }
    case "workspace.writeFile":
      return fileInfo(await workspaceOf(bridge).writeFile(input.path as string, bytesFrom(input)));
    case "workspace.list": {
      const prefix = input.prefix === undefined || input.prefix === null ? undefined : input.prefix;
      const files = await workspaceOf(bridge).list(prefix as string | undefined);
      return files.map(fileInfo);
    }
    case "workspace.remove":
      await workspaceOf(bridge).remove(input.path as string);
      return undefined;
    case "skill.load": {
      if (bridge.loadSkill === undefined) {
        throw new UnavailableError("SkillError", "skill.unavailable", "Skills are not available here");
      }
      if (typeof input.name !== "string") throw new TypeError("a skill name must be a string");
      const module = await bridge.loadSkill(input.name);
      return {
        name: module.name,
        version: module.version,
        js: module.js,
        imports: [...module.imports],
        typeExports: [...(module.typeExports ?? [])],
      };
    }
    default:
      throw new TypeError(`Unknown host operation ${String(name)}`);
  }
}
