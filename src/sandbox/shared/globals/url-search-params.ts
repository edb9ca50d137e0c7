import { parseFormEncoded, serializeFormEncoded } from "./url-encoding.ts";

/** Links params to a URL: they take its query, and report each change back (set once the class exists). */
export let linkParams: (
  params: SandboxURLSearchParams,
  query: string,
  onChange: (query: string) => void,
) => void;
/** Replaces a URL's params from its new query, without reporting back. */
export let resetParams: (params: SandboxURLSearchParams, query: string) => void;

type Init =
  | string
  | Iterable<Iterable<unknown>>
  | Record<string, unknown>
  | SandboxURLSearchParams
  | undefined;

/** `URLSearchParams`: an ordered list of name/value pairs, read and written as a query string. */
export class SandboxURLSearchParams {
  #pairs: [string, string][] = [];
  /** Called after each change, when these are a URL's `searchParams`. */
  #onChange: ((query: string) => void) | undefined;

  constructor(init: Init = undefined) {
    if (init === undefined || init === null) return;
    if (init instanceof SandboxURLSearchParams) {
      this.#pairs = init.#pairs.map(([name, value]) => [name, value]);
    } else if (typeof init === "object" || typeof init === "function") {
      const iterator = (init as { [Symbol.iterator]?: unknown })[Symbol.iterator];
      if (typeof iterator === "function") {
        for (const pair of init as Iterable<Iterable<unknown>>) {
          const items = Array.from(pair as Iterable<unknown>);
          if (items.length !== 2)
            throw new TypeError("URLSearchParams: each pair must have exactly two items");
          this.#pairs.push([String(items[0]), String(items[1])]);
        }
      } else {
        for (const key of Object.keys(init))
          this.#pairs.push([key, String((init as Record<string, unknown>)[key])]);
      }
    } else {
      const text = String(init);
      this.#pairs = parseFormEncoded(text.startsWith("?") ? text.slice(1) : text);
    }
  }

  static {
    linkParams = (params, query, onChange) => {
      params.#pairs = parseFormEncoded(query);
      params.#onChange = onChange;
    };
    resetParams = (params, query) => {
      params.#pairs = parseFormEncoded(query);
    };
  }

  #changed(): void {
    this.#onChange?.(this.toString());
  }

  get size(): number {
    return this.#pairs.length;
  }
  append(name: unknown, value: unknown): void {
    this.#pairs.push([String(name), String(value)]);
    this.#changed();
  }
  delete(name: unknown, value?: unknown): void {
    const key = String(name);
    const wanted = value === undefined ? undefined : String(value);
    this.#pairs = this.#pairs.filter(([n, v]) => !(n === key && (wanted === undefined || v === wanted)));
    this.#changed();
  }
  get(name: unknown): string | null {
    const key = String(name);
    return this.#pairs.find(([n]) => n === key)?.[1] ?? null;
  }
  getAll(name: unknown): string[] {
    const key = String(name);
    return this.#pairs.filter(([n]) => n === key).map(([, v]) => v);
  }
  has(name: unknown, value?: unknown): boolean {
    const key = String(name);
    const wanted = value === undefined ? undefined : String(value);
    return this.#pairs.some(([n, v]) => n === key && (wanted === undefined || v === wanted));
  }
  set(name: unknown, value: unknown): void {
    const key = String(name);
    const text = String(value);
    const first = this.#pairs.findIndex(([n]) => n === key);
    if (first < 0) this.#pairs.push([key, text]);
    else {
      this.#pairs[first] = [key, text];
      this.#pairs = this.#pairs.filter(([n], index) => n !== key || index === first);
    }
    this.#changed();
  }
  sort(): void {
    // Stable, by UTF-16 code units of the name.
    this.#pairs = this.#pairs
      .map((pair, index) => ({ pair, index }))
      .sort((a, b) => (a.pair[0] < b.pair[0] ? -1 : a.pair[0] > b.pair[0] ? 1 : a.index - b.index))
      .map(({ pair }) => pair);
    this.#changed();
  }
  forEach(
    callback: (value: string, name: string, params: SandboxURLSearchParams) => void,
    thisArg?: unknown,
  ): void {
    for (const [name, value] of [...this.#pairs]) callback.call(thisArg, value, name, this);
  }
  *entries(): IterableIterator<[string, string]> {
    for (let index = 0; index < this.#pairs.length; index += 1) {
      const [name, value] = this.#pairs[index] as [string, string];
      yield [name, value];
    }
  }
  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }
  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
  toString(): string {
    return serializeFormEncoded(this.#pairs);
  }
}
Object.defineProperty(SandboxURLSearchParams, "name", { value: "URLSearchParams" });
