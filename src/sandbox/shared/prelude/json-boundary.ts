/** Only JSON crosses the boundary: values are checked on the way out and host failures rebuilt on the way in. */
import type { HostReply } from "../host-calls.ts";
import {
  defineProperty,
  ErrorClass,
  isArray,
  keys,
  MapClass,
  parse,
  SetClass,
  StringOf,
  stringify,
  TypeErrorClass,
} from "./intrinsics.ts";
import { hostErrors } from "./run-state.ts";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** How host references are applied: their promise awaited, their result copied in. */
export const REPLY = { result: { promise: true, copy: true } };

function pathTo(path: string, key: string): string {
  return IDENTIFIER.test(key) ? path + "." + key : path + "[" + stringify(key) + "]";
}

function checkJson(value: unknown, path: string, ancestors: unknown[], key: string, what: string): void {
  if (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  ) {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  let problem: string | undefined;
  switch (typeof value) {
    case "bigint":
      problem = "a BigInt (convert it with String() or Number())";
      break;
    case "function":
      problem = "a function";
      break;
    case "symbol":
      problem = "a symbol";
      break;
    case "object":
      if (value === null) return;
      if (ancestors.includes(value)) problem = "a circular reference";
      else if (value instanceof MapClass || value instanceof SetClass)
        problem = "a Map or Set (convert it to an object or array)";
      break;
    default:
      return;
  }
  if (problem !== undefined) {
    throw new TypeErrorClass(what + " must be JSON-serializable, but " + (path || "it") + " is " + problem);
  }
  ancestors.push(value);
  if (isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      checkJson(value[index], path + "[" + index + "]", ancestors, StringOf(index), what);
    }
  } else {
    const record = value as Record<string, unknown>;
    for (const name of keys(record)) checkJson(record[name], pathTo(path, name), ancestors, name, what);
  }
  ancestors.pop();
}

/** `value` as JSON, or a TypeError naming `what` and the path of the first part JSON cannot hold. */
export function toJson(value: unknown, what: string, root: string): string {
  checkJson(value, root, [], "", what);
  return stringify(value);
}

/** The value of a host reply, or its failure thrown as the sandbox's error class of that name. */
export function fromReply(reply: HostReply): unknown {
  if (reply.ok) return reply.json === undefined ? undefined : parse(reply.json);
  const failure = reply.error;
  const data = failure.dataJson === undefined ? undefined : parse(failure.dataJson);
  const ErrorType = hostErrors[failure.name];
  if (ErrorType !== undefined) throw new ErrorType(failure.message, { code: failure.code, data });
  const error = new ErrorClass(failure.message) as Error & { code?: unknown; data?: unknown };
  if (failure.name !== "Error")
    defineProperty(error, "name", { value: failure.name, writable: true, configurable: true });
  error.code = failure.code;
  error.data = data;
  throw error;
}
