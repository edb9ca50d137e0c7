import { CodedError } from "../errors/coded-error.ts";

/**
 * - `store.open_failed`: the data directory or database file cannot be opened, or the PostgreSQL server
 *   refuses the store (authentication, a missing database, no permission to create its tables).
 * - `store.schema_too_new`: the database was written by a newer ToolScript (migrations are forward-only).
 * - `store.migration_failed`: a migration failed; it was rolled back and the schema is unchanged.
 * - `store.closed`: the store was used after `close()`.
 * - `store.journal_write_failed`: a line of an audit journal could not be written whole.
 * - `store.unreachable`: the PostgreSQL store does not answer (refused, dropped, timed out); retry once it is back.
 * - `store.bad_url`: the PostgreSQL URL cannot be parsed.
 */
export type StoreErrorCode =
  | "store.open_failed"
  | "store.schema_too_new"
  | "store.migration_failed"
  | "store.closed"
  | "store.journal_write_failed"
  | "store.unreachable"
  | "store.bad_url";

export class StoreError extends CodedError<StoreErrorCode> {
  override readonly name = "StoreError";
}
