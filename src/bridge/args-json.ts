/** Arguments objects already serialized: the accounting, the audit and the argument limit each need the JSON. */
const serialized = new WeakMap<object, string>();

/**
 * A call's arguments as compact JSON (`{}` when absent), serialized once per
 * arguments object: the steps around a call see the same object until one
 * (PII, validation) passes a new one on, and none changes it in place.
 */
export function argsJson(args: unknown): string {
  const value = args ?? {};
  if (typeof value !== "object") return JSON.stringify(value) ?? "";
  let json = serialized.get(value);
  if (json === undefined) {
    json = JSON.stringify(value) ?? "";
    serialized.set(value, json);
  }
  return json;
}
