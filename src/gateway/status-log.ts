import { describeRetry } from "../upstream/retry-text.ts";
import type { UpstreamStatus } from "../upstream/types.ts";
import type { Logger } from "./logger.ts";

/**
 * Upstream state changes as log lines: one per change, since a tool refresh
 * re-announces "ready" with the same count and a failed server is retried
 * forever (each attempt is not news).
 */
export class UpstreamStatusLog {
  readonly #logger: Logger;
  readonly #said = new Map<string, string>();

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  log(status: UpstreamStatus): void {
    if (status.state === "closed" || status.state === "connecting") return;
    const change =
      status.state === "ready" ? `ready ${status.toolCount}` : `${status.state} ${status.error ?? ""}`;
    if (this.#said.get(status.server) === change) return;
    this.#said.set(status.server, change);
    if (status.state === "ready") {
      this.#logger.info(`${status.server}: ready, ${status.toolCount} tools (${status.transport})`);
    } else if (status.state === "needs_login") {
      // Said once per login; the retries that look for a token stored by another process are not news.
      const how = status.login?.url ? ` (or open ${status.login.url})` : "";
      const login = `needs_login ${status.login?.url ?? ""}`;
      if (this.#said.get(`${status.server}\0login`) === login) return;
      this.#said.set(`${status.server}\0login`, login);
      this.#logger.warn(`${status.server}: needs login: run \`${status.login?.command}\`${how}`);
    } else {
      const tail = status.stderrTail
        ? `\n  stderr: ${status.stderrTail.split("\n").slice(-3).join("\n  ")}`
        : "";
      const attempt =
        status.state === "restarting" ? ` (attempt ${status.attempt} of ${status.maxAttempts})` : "";
      const line = `${status.server}: ${status.state}${attempt}${status.error ? `: ${status.error}` : ""}`;
      this.#logger.warn(`${line}; ${describeRetry(status.nextRetryAt)}${tail}`);
    }
  }
}
