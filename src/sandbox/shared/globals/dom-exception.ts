/** Legacy codes of the DOMException names the sandbox's web globals throw. */
const CODES: Record<string, number> = {
  SyntaxError: 12,
  InvalidCharacterError: 5,
  TypeMismatchError: 17,
  QuotaExceededError: 22,
  DataCloneError: 25,
};

/** `DOMException` as web platforms have it: an Error with a `name` chosen per failure. */
export class SandboxDOMException extends Error {
  readonly #name: string;
  constructor(message = "", name = "Error") {
    super(message);
    this.#name = String(name);
  }
  override get name(): string {
    return this.#name;
  }
  get code(): number {
    return CODES[this.#name] ?? 0;
  }
}
Object.defineProperty(SandboxDOMException, "name", { value: "DOMException" });

/** The DOMException web platforms throw, whichever class the sandbox has (Deno's own or this one). */
export function domException(message: string, name: string): Error {
  const Native = (globalThis as { DOMException?: new (message: string, name: string) => Error }).DOMException;
  return new (Native ?? SandboxDOMException)(message, name);
}
