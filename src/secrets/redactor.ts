import type { Config } from "../config/schema.ts";
import { escapeRegExp } from "../text/escape-regexp.ts";

/** Shorter values are too likely to occur by chance to be redacted everywhere. */
export const MIN_SECRET_LENGTH = 6;
export const REDACTED = "[REDACTED]";

/**
 * Removes configured secrets (upstream `env` values, `headers` values, the
 * HTTP token) from anything that leaves the gateway: answers, logs, errors.
 * A tool such as server-everything's `get-env` can hand a server's own
 * environment to code; the answer still never carries it.
 */
export class SecretRedactor {
  #secrets: string[] = [];
  #pattern: RegExp | undefined;

  constructor(secrets: Iterable<string>) {
    this.add(...secrets);
  }

  /**
   * Redacts these too from now on: secrets that appear while the gateway runs
   * (OAuth tokens obtained from an authorization server).
   */
  add(...secrets: string[]): void {
    // A secret inside JSON text (a tool answering with serialized JSON) appears with its escapes.
    const fresh = secrets
      .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)])
      .filter((secret) => secret.length >= MIN_SECRET_LENGTH && !this.#secrets.includes(secret));
    if (fresh.length === 0) return;
    // Longest first, so a secret containing another is replaced whole.
    this.#secrets = [...new Set([...this.#secrets, ...fresh])].sort((a, b) => b.length - a.length);
    this.#pattern = new RegExp(this.#secrets.map(escapeRegExp).join("|"), "g");
  }

  static fromConfig(config: Config): SecretRedactor {
    const secrets: string[] = [];
    for (const server of config.servers) {
      if (server.kind === "stdio") secrets.push(...Object.values(server.env));
      else {
        secrets.push(...Object.values(server.headers));
        // `Bearer abc` leaks as `abc` too.
        for (const value of Object.values(server.headers)) secrets.push(...value.split(/\s+/).slice(1));
        if (server.oauth?.clientSecret) secrets.push(server.oauth.clientSecret);
      }
    }
    const token = config.settings.server.http.token;
    if (token) secrets.push(token);
    secrets.push(...Object.values(config.settings.server.http.clients));
    return new SecretRedactor(secrets);
  }

  get size(): number {
    return this.#secrets.length;
  }

  redact(text: string): string {
    return this.#pattern ? text.replace(this.#pattern, REDACTED) : text;
  }

  /** The result, logs and error of an execution, redacted; everything else as it is. */
  redactExecution<T extends { result?: unknown; logs: unknown[]; error?: unknown }>(response: T): T {
    if (!this.#pattern) return response;
    const { result, logs, error } = response;
    return {
      ...response,
      logs: this.redactValue(logs),
      ...(result !== undefined && { result: this.redactValue(result) }),
      ...(error !== undefined && { error: this.redactValue(error) }),
    };
  }

  /** Redacts every string (and key) inside a JSON value. */
  redactValue<T>(value: T): T {
    if (!this.#pattern) return value;
    return this.#walk(value) as T;
  }

  #walk(value: unknown): unknown {
    if (typeof value === "string") return this.redact(value);
    if (Array.isArray(value)) return value.map((item) => this.#walk(item));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[this.redact(key)] = this.#walk(item);
      return out;
    }
    return value;
  }
}
