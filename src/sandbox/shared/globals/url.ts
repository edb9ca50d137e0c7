import { FRAGMENT_SET, percentEncode, QUERY_SET, SPECIAL_QUERY_SET, USERINFO_SET } from "./url-encoding.ts";
import {
  isSpecial,
  parseHost,
  parseUrl,
  SPECIAL_PORTS,
  serializePath,
  serializeUrl,
  type UrlRecord,
} from "./url-parse.ts";
import { linkParams, resetParams, SandboxURLSearchParams } from "./url-search-params.ts";

function invalidUrl(input: string): TypeError {
  return new TypeError(
    `Invalid URL: ${JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input)}`,
  );
}

function recordOf(input: unknown, base: unknown): UrlRecord {
  const text = String(input);
  let baseRecord: UrlRecord | undefined;
  if (base !== undefined) {
    baseRecord = base instanceof SandboxURL ? parseUrl(base.href) : parseUrl(String(base));
    if (baseRecord === undefined) throw invalidUrl(String(base));
  }
  const record = parseUrl(text, baseRecord);
  if (record === undefined) throw invalidUrl(text);
  return record;
}

/** `URL`: a parsed URL whose parts can be read and set, with its query as `searchParams`. */
export class SandboxURL {
  #url: UrlRecord;
  readonly #params = new SandboxURLSearchParams();

  constructor(input: unknown, base?: unknown) {
    this.#url = recordOf(input, base);
    linkParams(this.#params, this.#url.query ?? "", (query) => {
      this.#url.query = query === "" ? null : query;
    });
  }

  static canParse(input: unknown, base?: unknown): boolean {
    try {
      recordOf(input, base);
      return true;
    } catch {
      return false;
    }
  }

  static parse(input: unknown, base?: unknown): SandboxURL | null {
    return SandboxURL.canParse(input, base) ? new SandboxURL(input, base) : null;
  }

  get href(): string {
    return serializeUrl(this.#url);
  }
  set href(value: string) {
    const next = parseUrl(String(value));
    if (next === undefined) throw invalidUrl(String(value));
    this.#url = next;
    resetParams(this.#params, next.query ?? "");
  }
  get origin(): string {
    const { scheme, host, port } = this.#url;
    if (scheme === "blob" && typeof this.#url.path === "string") {
      const inner = parseUrl(this.#url.path);
      return inner && (inner.scheme === "http" || inner.scheme === "https")
        ? new SandboxURL(this.#url.path).origin
        : "null";
    }
    if (!isSpecial(scheme) || scheme === "file") return "null";
    return `${scheme}://${host}${port !== null ? `:${port}` : ""}`;
  }
  get protocol(): string {
    return `${this.#url.scheme}:`;
  }
  set protocol(value: string) {
    const scheme = String(value).replace(/:.*$/, "").toLowerCase();
    if (!/^[a-z][a-z0-9+.-]*$/.test(scheme)) return;
    // A special scheme cannot become a non-special one, nor the reverse.
    if (isSpecial(scheme) !== isSpecial(this.#url.scheme)) return;
    if (
      scheme === "file" &&
      (this.#url.username !== "" || this.#url.password !== "" || this.#url.port !== null)
    )
      return;
    this.#url.scheme = scheme;
    if (this.#url.port === SPECIAL_PORTS[scheme]) this.#url.port = null;
  }
  get username(): string {
    return this.#url.username;
  }
  set username(value: string) {
    if (this.#url.host === null || this.#url.host === "" || this.#url.scheme === "file") return;
    this.#url.username = percentEncode(String(value), USERINFO_SET);
  }
  get password(): string {
    return this.#url.password;
  }
  set password(value: string) {
    if (this.#url.host === null || this.#url.host === "" || this.#url.scheme === "file") return;
    this.#url.password = percentEncode(String(value), USERINFO_SET);
  }
  get host(): string {
    const { host, port } = this.#url;
    if (host === null) return "";
    return port === null ? host : `${host}:${port}`;
  }
  set host(value: string) {
    if (typeof this.#url.path === "string") return;
    const text = String(value);
    const port = /:(\d*)$/.exec(text.startsWith("[") ? text.slice(text.indexOf("]")) : text);
    this.hostname = port ? text.slice(0, text.length - port[0].length) : text;
    if (port?.[1]) this.port = port[1];
  }
  get hostname(): string {
    return this.#url.host ?? "";
  }
  set hostname(value: string) {
    if (typeof this.#url.path === "string") return;
    try {
      const host = parseHost(String(value), isSpecial(this.#url.scheme));
      this.#url.host = this.#url.scheme === "file" && host === "localhost" ? "" : host;
    } catch {
      // An invalid host leaves the URL as it was, as browsers do.
    }
  }
  get port(): string {
    return this.#url.port === null ? "" : String(this.#url.port);
  }
  set port(value: string) {
    if (this.#url.host === null || this.#url.host === "" || this.#url.scheme === "file") return;
    const text = String(value);
    if (text === "") {
      this.#url.port = null;
      return;
    }
    const digits = /^\d+/.exec(text)?.[0];
    if (digits === undefined || Number(digits) > 65535) return;
    const port = Number(digits);
    this.#url.port = port === SPECIAL_PORTS[this.#url.scheme] ? null : port;
  }
  get pathname(): string {
    return serializePath(this.#url);
  }
  set pathname(value: string) {
    if (typeof this.#url.path === "string") return;
    const copy = { ...this.#url, path: [] as string[], query: null, fragment: null };
    const text = String(value);
    const special = isSpecial(copy.scheme);
    // "?" and "#" in a path set through pathname are part of it, not a query or fragment.
    const parsed = parseUrl(
      `${serializeUrl(copy)}${special || text.startsWith("/") ? "" : "/"}${percentEncode(text, "?#")}`,
    );
    if (parsed && Array.isArray(parsed.path)) this.#url.path = parsed.path;
  }
  get search(): string {
    return this.#url.query === null || this.#url.query === "" ? "" : `?${this.#url.query}`;
  }
  set search(value: string) {
    const text = String(value);
    const query = text.startsWith("?") ? text.slice(1) : text;
    this.#url.query =
      text === "" ? null : percentEncode(query, isSpecial(this.#url.scheme) ? SPECIAL_QUERY_SET : QUERY_SET);
    resetParams(this.#params, this.#url.query ?? "");
  }
  get searchParams(): SandboxURLSearchParams {
    return this.#params;
  }
  get hash(): string {
    return this.#url.fragment === null || this.#url.fragment === "" ? "" : `#${this.#url.fragment}`;
  }
  set hash(value: string) {
    const text = String(value);
    this.#url.fragment =
      text === "" ? null : percentEncode(text.startsWith("#") ? text.slice(1) : text, FRAGMENT_SET);
  }
  toString(): string {
    return this.href;
  }
  toJSON(): string {
    return this.href;
  }
}
Object.defineProperty(SandboxURL, "name", { value: "URL" });
