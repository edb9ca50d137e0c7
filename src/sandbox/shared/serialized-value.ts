/**
 * A tool result serialized as JSON once on the host (bridge/serialize-result.ts):
 * the audit reads its size, the accounting its length, and the sandbox receives
 * `json` as it is, so no step stringifies the result again.
 */
export class SerializedValue {
  readonly value: unknown;
  /** Undefined for an undefined value (nothing crosses into the sandbox). */
  readonly json: string | undefined;
  #bytes: number | undefined;

  constructor(value: unknown) {
    this.value = value;
    this.json = value === undefined ? undefined : JSON.stringify(value);
  }

  /** UTF-8 bytes of `json`, measured once. */
  get bytes(): number {
    this.#bytes ??= this.json === undefined ? 0 : Buffer.byteLength(this.json);
    return this.#bytes;
  }
}

/** `value`'s JSON and its UTF-8 size, reusing the serialization when there is one. */
export function jsonOf(value: unknown): { json: string | undefined; bytes: number } {
  if (value instanceof SerializedValue) return { json: value.json, bytes: value.bytes };
  const json = value === undefined ? undefined : JSON.stringify(value);
  return { json, bytes: json === undefined ? 0 : Buffer.byteLength(json) };
}
