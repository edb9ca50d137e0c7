/** The `workspace` global: the session's files over the host's operations (bytes as base64). */
import { fromBase64, toBase64 } from "./bytes-base64.ts";
import {
  ArrayBufferClass,
  define,
  freeze,
  stringify,
  TypeErrorClass,
  Uint8ArrayClass,
} from "./intrinsics.ts";
import { fromReply, REPLY } from "./json-boundary.ts";
import { run } from "./run-state.ts";

/** A workspace or skill operation of the host (`workspace.readFile`, `skill.load`, ...). */
export async function hostOperation(name: string, args: unknown): Promise<unknown> {
  return fromReply(await run.op!.apply(undefined, [name, stringify(args)], REPLY));
}

export function installWorkspace(): void {
  const workspaceObject = {
    async readFile(path: unknown, encoding?: unknown): Promise<unknown> {
      if (encoding !== undefined && encoding !== "utf8" && encoding !== "bytes") {
        throw new TypeErrorClass('workspace.readFile(path, encoding?): encoding must be "utf8" or "bytes"');
      }
      const bytes = encoding === "bytes";
      const value = (await hostOperation("workspace.readFile", {
        path,
        encoding: bytes ? "bytes" : "utf8",
      })) as { base64: string; text: string };
      return bytes ? fromBase64(value.base64) : value.text;
    },
    async writeFile(path: unknown, data: unknown): Promise<unknown> {
      let payload: unknown;
      if (typeof data === "string") payload = { path, text: data };
      else if (data instanceof Uint8ArrayClass) payload = { path, base64: toBase64(data) };
      else if (data instanceof ArrayBufferClass)
        payload = { path, base64: toBase64(new Uint8ArrayClass(data)) };
      else
        throw new TypeErrorClass(
          "workspace.writeFile(path, data): data must be a string, a Uint8Array or an ArrayBuffer",
        );
      return hostOperation("workspace.writeFile", payload);
    },
    async list(prefix?: unknown): Promise<unknown> {
      return hostOperation("workspace.list", prefix === undefined ? {} : { prefix });
    },
    async remove(path: unknown): Promise<void> {
      await hostOperation("workspace.remove", { path });
    },
  };
  define("workspace", freeze(workspaceObject));
}
