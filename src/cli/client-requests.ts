import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { ClientRequestHooks } from "../upstream/types.ts";

/**
 * How one-shot commands (`toolscript run`) answer what upstream servers ask
 * of their client. There is no model to sample and no dialog to fill in:
 * roots are the working folder, and a request for input is declined (said on
 * stderr) so the server can carry on or fail clearly instead of waiting.
 * Sampling is not offered, so servers are not told it exists.
 */
export function cliClientRequests(cwd: string = process.cwd()): ClientRequestHooks {
  return {
    async elicit(server, params) {
      const message = (params as { message?: unknown } | undefined)?.message;
      process.stderr.write(
        `toolscript: server "${server}" asked for input${typeof message === "string" ? ` ("${message}")` : ""}; declined: nobody can answer in a one-shot run\n`,
      );
      return { action: "decline" };
    },
    async listRoots() {
      return { roots: [{ uri: pathToFileURL(cwd).href, name: basename(cwd) || cwd }] };
    },
  };
}
