/**
 * The built-ins the prelude relies on, captured when the prelude is evaluated —
 * before any agent code exists in the sandbox. Agent code can replace
 * `JSON.stringify`, `Object.defineProperty` or `String.prototype.slice`, but
 * that only breaks its own run: the prelude keeps using these originals. Above
 * all the cuts of huge strings (cut.ts) must use the captured `sliceString`, or
 * a replaced `slice` could make the host copy a whole 100 MB string.
 *
 * Every module of the bundle is evaluated when the prelude script runs, and the
 * prelude runs before the agent's code is even compiled, so these are the
 * originals. The other prelude modules use these names, not the globals,
 * wherever a tampered built-in could change what leaves the sandbox.
 */

export const g: Record<string, unknown> = globalThis as unknown as Record<string, unknown>;
export const stringify = JSON.stringify;
export const parse = JSON.parse;
export const {
  create,
  freeze,
  defineProperty,
  defineProperties,
  getOwnPropertyDescriptors,
  keys,
  getOwnPropertyNames,
  is,
} = Object;
export const isArray = Array.isArray;
export const ErrorClass = Error;
export const TypeErrorClass = TypeError;
export const SyntaxErrorClass = SyntaxError;
export const ProxyClass = Proxy;
export const MapClass = Map;
export const SetClass = Set;
export const WeakSetClass = WeakSet;
export const StringOf = String;
export const Uint8ArrayClass = Uint8Array;
export const Uint16ArrayClass = Uint16Array;
export const ArrayBufferClass = ArrayBuffer;
export const fromCharCode = String.fromCharCode;
const callOf = Function.prototype.call;
/** `String.prototype.slice` as a function of (text, start, end). */
export const sliceString = callOf.bind(String.prototype.slice) as (
  text: string,
  start: number,
  end?: number,
) => string;
/** `RegExp.prototype.test` as a function of (pattern, text). */
export const testOf = callOf.bind(RegExp.prototype.test) as (pattern: RegExp, text: string) => boolean;
/** Global eval: skill bodies run as scripts of their own, outside the prelude's scope. */
export const indirectEval = g.eval as (source: string) => unknown;

/** Defines a global as built-ins are: writable, configurable, not enumerable. */
export function define(name: string, value: unknown): void {
  defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });
}
