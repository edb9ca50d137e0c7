import { escapeRegExp } from "../text/escape-regexp.ts";

/**
 * Which server to ask for a resource URI: the server that returned it (a
 * `resource_link` or an embedded resource in a tool result) or listed it,
 * else the servers whose resource templates match it. Kept per session, so a
 * link one execution returned can be read by the next.
 */

/** URIs remembered per session; the oldest are forgotten past it. */
const MAX_REMEMBERED = 10_000;

export class ResourceRoutes {
  readonly #servers = new Map<string, string>();
  /** Compiled templates per server, as last listed. */
  readonly #templates = new Map<string, RegExp[]>();

  /** The server that returned or listed `uri`, if any did. */
  serverOf(uri: string): string | undefined {
    return this.#servers.get(uri);
  }

  remember(uri: string, server: string): void {
    this.#servers.delete(uri);
    this.#servers.set(uri, server);
    if (this.#servers.size > MAX_REMEMBERED) {
      const oldest = this.#servers.keys().next();
      if (!oldest.done) this.#servers.delete(oldest.value);
    }
  }

  /** Remembers every `resource_link` and embedded resource of a raw tool result. */
  rememberLinks(result: unknown, server: string): void {
    const content = (result as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) return;
    for (const part of content) {
      if (typeof part !== "object" || part === null) continue;
      const entry = part as { type?: unknown; uri?: unknown; resource?: { uri?: unknown } };
      if (entry.type === "resource_link" && typeof entry.uri === "string") this.remember(entry.uri, server);
      if (entry.type === "resource" && typeof entry.resource?.uri === "string") {
        this.remember(entry.resource.uri, server);
      }
    }
  }

  hasTemplates(server: string): boolean {
    return this.#templates.has(server);
  }

  /** Records a server's templates (`resources/templates/list` entries); ones without a usable `uriTemplate` are skipped. */
  setTemplates(server: string, templates: readonly unknown[]): void {
    const compiled: RegExp[] = [];
    for (const template of templates) {
      const text = (template as { uriTemplate?: unknown } | null)?.uriTemplate;
      if (typeof text === "string") compiled.push(templatePattern(text));
    }
    this.#templates.set(server, compiled);
  }

  /** The server's resource list changed (or it reconnected): its templates are listed again when next needed. */
  forgetTemplates(server: string): void {
    this.#templates.delete(server);
  }

  /** Whether one of `server`'s templates matches `uri`. */
  templateMatches(server: string, uri: string): boolean {
    return this.#templates.get(server)?.some((pattern) => pattern.test(uri)) ?? false;
  }
}

/**
 * A URI template (RFC 6570) as a pattern matching the URIs it expands to:
 * `{var}` one path segment, `{+var}` / `{#var}` anything, `{?a,b}` / `{&a}` an
 * optional query, `{/var}` and `{.var}` their prefixed segments.
 */
export function templatePattern(template: string): RegExp {
  let source = "";
  let at = 0;
  for (const match of template.matchAll(/\{([^}]*)\}/g)) {
    source += escapeRegExp(template.slice(at, match.index));
    at = match.index + match[0].length;
    const expression = match[1] ?? "";
    const operator = expression[0] ?? "";
    if (operator === "+" || operator === "#") source += ".*";
    else if (operator === "?" || operator === "&") source += "(?:[?&][^#]*)?";
    else if (operator === "/") source += "(?:/[^/?#]*)*";
    else if (operator === ".") source += "(?:\\.[^/?#.]*)*";
    else source += "[^/?#]+";
  }
  source += escapeRegExp(template.slice(at));
  return new RegExp(`^${source}$`);
}
