import { domException } from "./dom-exception.ts";

/** Error constructors a clone keeps (the HTML standard's list); any other error clones as `Error`. */
const ERROR_TYPES: Record<string, ErrorConstructor> = {
  Error,
  EvalError,
  RangeError,
  ReferenceError,
  SyntaxError,
  TypeError,
  URIError,
};

type TypedArrayConstructor = new (buffer: ArrayBuffer, byteOffset: number, length: number) => ArrayBufferView;
const VIEWS: TypedArrayConstructor[] = [
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
];

function uncloneable(what: string): Error {
  return domException(`${what} could not be cloned.`, "DataCloneError");
}

function cloneValue(value: unknown, memory: Map<object, unknown>): unknown {
  if (typeof value === "symbol") throw uncloneable(String(value));
  if (typeof value === "function") throw uncloneable(String(value).slice(0, 60));
  if (value === null || typeof value !== "object") return value;
  const seen = memory.get(value);
  if (seen !== undefined) return seen;
  const remember = <T>(copy: T): T => {
    memory.set(value, copy);
    return copy;
  };
  if (
    value instanceof Boolean ||
    value instanceof Number ||
    value instanceof String ||
    value instanceof BigInt
  ) {
    return remember(Object(value.valueOf()));
  }
  if (value instanceof Date) return remember(new Date(value.getTime()));
  if (value instanceof RegExp) return remember(new RegExp(value.source, value.flags));
  if (value instanceof ArrayBuffer) return remember(value.slice(0));
  if (ArrayBuffer.isView(value)) {
    const buffer = cloneValue(value.buffer, memory) as ArrayBuffer;
    if (value instanceof DataView) return remember(new DataView(buffer, value.byteOffset, value.byteLength));
    const View = VIEWS.find((Type) => value instanceof Type);
    if (View === undefined) throw uncloneable("This view");
    const length =
      value.byteLength / ((value as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT ?? 1);
    return remember(new View(buffer, value.byteOffset, length));
  }
  if (value instanceof Map) {
    const copy = remember(new Map());
    for (const [key, entry] of value) copy.set(cloneValue(key, memory), cloneValue(entry, memory));
    return copy;
  }
  if (value instanceof Set) {
    const copy = remember(new Set());
    for (const entry of value) copy.add(cloneValue(entry, memory));
    return copy;
  }
  if (value instanceof Error) {
    const name = String(value.name);
    const ErrorType = ERROR_TYPES[name] ?? Error;
    const copy = remember(new ErrorType(String(value.message)));
    if (typeof value.stack === "string")
      Object.defineProperty(copy, "stack", { value: value.stack, writable: true, configurable: true });
    if ("cause" in value)
      Object.defineProperty(copy, "cause", {
        value: cloneValue(value.cause, memory),
        writable: true,
        configurable: true,
      });
    return copy;
  }
  if (
    value instanceof Promise ||
    value instanceof WeakMap ||
    value instanceof WeakSet ||
    value instanceof WeakRef
  ) {
    throw uncloneable(`#<${value.constructor.name}>`);
  }
  if (Array.isArray(value)) {
    const copy = remember(new Array(value.length));
    for (const key of Object.keys(value))
      copy[key as unknown as number] = cloneValue((value as unknown as Record<string, unknown>)[key], memory);
    return copy;
  }
  // Any other object clones as a plain object of its own enumerable string keys.
  const copy = remember({} as Record<string, unknown>);
  for (const key of Object.keys(value))
    copy[key] = cloneValue((value as Record<string, unknown>)[key], memory);
  return copy;
}

/** `structuredClone(value)`: a deep copy keeping Maps, Sets, Dates, RegExps, buffers, errors and cycles. */
export function structuredClone<T>(...args: unknown[]): T {
  const value = args[0] as T;
  const options = args[1] as { transfer?: unknown[] } | undefined;
  if (args.length === 0) throw new TypeError("structuredClone: 1 argument required, but only 0 present");
  if (options?.transfer !== undefined && options.transfer.length > 0) {
    throw uncloneable("Transferring");
  }
  return cloneValue(value, new Map()) as T;
}
