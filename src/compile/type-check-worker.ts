// The type-check worker: a check runs here, off the gateway's thread, so a
// program whose types explode (or overflow the parser's stack) costs only this
// worker, which the gateway stops at its deadline and replaces.
import { parentPort } from "node:worker_threads";
import { TypeCheckService } from "./type-check-service.ts";
import { loadTypeScript } from "./typescript-api.ts";

export type TypeCheckMessage =
  | { type: "tools"; tree: Array<[string, string]> }
  | { type: "check"; id: number; source: string; skills: Array<[string, string]> };

export type TypeCheckReply =
  | { id: number; ok: true; error?: import("../sandbox/types.ts").ExecutionError }
  | { id: number; ok: false; failure: string };

const port = parentPort;
if (port) {
  const service = loadTypeScript().then((api) => new TypeCheckService(api));
  // Messages are handled in order: tools always land before the checks sent after them.
  let queue: Promise<unknown> = service;
  port.on("message", (message: TypeCheckMessage) => {
    queue = queue.then(async () => {
      const checker = await service;
      if (message.type === "tools") {
        checker.setTools(message.tree);
        return;
      }
      let reply: TypeCheckReply;
      try {
        const error = checker.check(message.source, message.skills);
        reply = error ? { id: message.id, ok: true, error } : { id: message.id, ok: true };
      } catch (error) {
        reply = {
          id: message.id,
          ok: false,
          failure: error instanceof Error ? error.message : String(error),
        };
      }
      port.postMessage(reply);
    });
  });
}
