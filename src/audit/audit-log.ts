import type { Logger } from "../gateway/logger.ts";
import type { AuditEntry, Store } from "../store/types.ts";

export type AuditStderrLevel = "off" | "violations" | "executions" | "calls";

/**
 * Records executions and tool calls durably in the store and, at the
 * configured level, as JSON lines on stderr. A failing store never fails
 * the call it records: the error is logged instead.
 */
export class AuditLog {
  readonly #store: Store | undefined;
  readonly #level: AuditStderrLevel;
  readonly #write: (line: string) => void;
  readonly #logger: Logger;

  constructor(options: {
    store: Store | undefined;
    level: AuditStderrLevel;
    logger: Logger;
    write?: (line: string) => void;
  }) {
    this.#store = options.store;
    this.#level = options.level;
    this.#logger = options.logger;
    this.#write = options.write ?? ((line) => process.stderr.write(`${line}\n`));
  }

  record(entry: AuditEntry, violation: boolean): void {
    try {
      this.#store?.appendAudit(entry);
    } catch (error) {
      this.#logger.error(`audit log write failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (this.#shouldPrint(entry, violation)) {
      this.#write(
        JSON.stringify({ audit: entry.kind ?? "tool_call", ...entry, violation: violation || undefined }),
      );
    }
  }

  #shouldPrint(entry: AuditEntry, violation: boolean): boolean {
    switch (this.#level) {
      case "off":
        return false;
      case "violations":
        return violation;
      case "executions":
        return violation || entry.kind === "execution";
      case "calls":
        return true;
    }
  }
}
