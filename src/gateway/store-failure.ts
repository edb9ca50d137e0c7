import { messageOf } from "../errors/message-of.ts";
import type { ExecutionError } from "../sandbox/types.ts";
import { StoreError } from "../store/errors.ts";

/**
 * What an execution answers when reaching the store failed: `StoreUnavailable`
 * when the store does not answer (PostgreSQL down or cut off), naming where it
 * is (`location` carries no password); nothing runs meanwhile, and nothing
 * falls back to local state. Other errors keep their own name and code.
 */
export function storeFailure(error: unknown, location: string | undefined): ExecutionError {
  if (error instanceof StoreError && error.code === "store.unreachable") {
    const cause = error.cause instanceof Error ? error.cause.message : undefined;
    return {
      kind: "runtime",
      name: "StoreUnavailable",
      code: error.code,
      message: `the store at ${location ?? "(unknown)"} does not answer${cause ? ` (${cause})` : ""}; executions resume once it is back`,
    };
  }
  const name = error instanceof Error ? error.name : "Error";
  const code = (error as { code?: unknown } | null)?.code;
  return { kind: "runtime", name, message: messageOf(error), ...(typeof code === "string" && { code }) };
}
