/**
 * The `resources` and `prompts` globals: the upstream servers' resources and
 * prompts over the host's operations (src/sandbox/shared/host-operations.ts).
 * A blob crosses as base64 and reaches the program as a Uint8Array in `bytes`.
 */
import { fromBase64 } from "./bytes-base64.ts";
import { freeze, isArray, TypeErrorClass } from "./intrinsics.ts";
import { hostOperation } from "./workspace.ts";

interface ContentJson {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

interface ResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  bytes?: Uint8Array;
}

function contentOf(entry: ContentJson): ResourceContent {
  const content: ResourceContent = { uri: entry.uri };
  if (entry.mimeType !== undefined) content.mimeType = entry.mimeType;
  if (typeof entry.blob === "string") content.bytes = fromBase64(entry.blob);
  else content.text = typeof entry.text === "string" ? entry.text : "";
  return content;
}

function optionalServer(server: unknown, what: string): { server?: string } {
  if (server === undefined || server === null) return {};
  if (typeof server !== "string") throw new TypeErrorClass(what + ": server must be a string");
  return { server };
}

export function installResources(define: (name: string, value: unknown) => void): void {
  const resources = {
    async read(uri: unknown, options?: unknown): Promise<unknown> {
      if (typeof uri !== "string" || uri === "") {
        throw new TypeErrorClass("resources.read(uri, options?): uri must be a non-empty string");
      }
      const server = (options as { server?: unknown } | undefined)?.server;
      const value = (await hostOperation("resources.read", {
        uri,
        ...optionalServer(server, "resources.read(uri, { server })"),
      })) as { server: string; contents: ContentJson[] };
      const contents: ResourceContent[] = [];
      if (isArray(value.contents)) for (const entry of value.contents) contents.push(contentOf(entry));
      // The first entry's fields at the top (most resources have one), every entry in `contents`.
      const first = contents[0] ?? { uri, text: "" };
      return { ...first, server: value.server, contents };
    },
    async list(server?: unknown): Promise<unknown> {
      return hostOperation("resources.list", optionalServer(server, "resources.list(server?)"));
    },
    async templates(server?: unknown): Promise<unknown> {
      return hostOperation("resources.templates", optionalServer(server, "resources.templates(server?)"));
    },
  };
  const prompts = {
    async get(server: unknown, name: unknown, args?: unknown): Promise<unknown> {
      if (typeof server !== "string")
        throw new TypeErrorClass("prompts.get(server, name, args?): server must be a string");
      if (typeof name !== "string")
        throw new TypeErrorClass("prompts.get(server, name, args?): name must be a string");
      return hostOperation("prompts.get", { server, name, args: args === undefined ? {} : args });
    },
    async list(server?: unknown): Promise<unknown> {
      return hostOperation("prompts.list", optionalServer(server, "prompts.list(server?)"));
    },
  };
  define("resources", freeze(resources));
  define("prompts", freeze(prompts));
}
