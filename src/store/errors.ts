/**
 * - `store.open_failed`: the data directory or database file cannot be opened.
 * - `store.schema_too_new`: the database was written by a newer ToolScript (migrations are forward-only).
 * - `store.migration_failed`: a migration failed; it was rolled back and the schema is unchanged.
 * - `store.closed`: the store was used after `close()`.
 */
export type StoreErrorCode =
  | "store.open_failed"
  | "store.schema_too_new"
  | "store.migration_failed"
  | "store.closed";

export class StoreError extends Error {
  override readonly name = "StoreError";
  readonly code: StoreErrorCode;
  readonly data: Record<string, unknown>;

  constructor(
    code: StoreErrorCode,
    message: string,
    data: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
    this.data = data;
  }
}
