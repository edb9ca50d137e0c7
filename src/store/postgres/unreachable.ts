import { StoreError } from "../errors.ts";

/**
 * What says the server cannot be talked to (as opposed to a statement it
 * refused): socket errors, the server shutting down (57P01-57P03) or out of
 * connection slots (53300), the connection-exception class 08, and
 * node-postgres's own messages for a dropped or timed-out connection.
 */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);
const UNREACHABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connection error|Client was closed|not queryable/i;

export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && UNREACHABLE_CODES.has(code)) return true;
  if (error instanceof AggregateError) return error.errors.some(isUnreachable);
  return UNREACHABLE_MESSAGES.test(error.message);
}

/** `error` as `store.unreachable` naming `server` (host:port, never the password) when it is a connection failure; else as it is. */
export function asStoreError(error: unknown, server: string): unknown {
  if (error instanceof StoreError || !isUnreachable(error)) return error;
  const reason = error instanceof Error ? error.message || (error as { code?: string }).code : String(error);
  return new StoreError(
    "store.unreachable",
    `the PostgreSQL store at ${server} is unreachable: ${reason}`,
    { server },
    { cause: error },
  );
}
