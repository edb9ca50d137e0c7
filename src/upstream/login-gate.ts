import { type AuthProvider, InsufficientScopeError } from "@modelcontextprotocol/client";
import type {
  ClientRequestHooks,
  UpstreamAuthorization,
  UpstreamLogin,
  UpstreamServerConfig,
} from "./types.ts";

/** Re-authorizations for a wider scope one request may cause before it fails. */
const MAX_STEP_UPS = 2;

/**
 * The OAuth side of one connection (an HTTP server without an Authorization
 * header of its own): the auth provider for its transport, whether a login is
 * waiting for a person, asking the calling client to open the URL, and the
 * step-up retry after `403 insufficient_scope`.
 */
export class LoginGate {
  readonly #server: string;
  readonly #auth: UpstreamAuthorization | undefined;
  readonly #askToOpenUrl: ClientRequestHooks["askToOpenUrl"];
  /** The authorization URL a client was last asked to open. */
  #askedToOpen: string | undefined;
  /** Signals of waits that asked for their client to be asked, before the login had a URL. */
  readonly #askWhenPending = new Set<AbortSignal>();

  constructor(
    config: UpstreamServerConfig,
    authorize:
      | ((config: UpstreamServerConfig & { kind: "http" }) => UpstreamAuthorization | undefined)
      | undefined,
    askToOpenUrl: ClientRequestHooks["askToOpenUrl"],
    onPendingChange: (waiting: boolean) => void,
  ) {
    this.#server = config.name;
    this.#askToOpenUrl = askToOpenUrl;
    const oauth = config.kind === "http" && !hasAuthorizationHeader(config.headers);
    this.#auth = oauth ? authorize?.(config) : undefined;
    if (this.#auth) {
      this.#auth.onPendingChange = (pending) => {
        onPendingChange(pending !== undefined);
        if (pending) this.#loginStarted();
      };
    }
  }

  get transportProvider(): AuthProvider | undefined {
    return this.#auth?.transportProvider;
  }

  /** True while a login waits for a person. */
  get waiting(): boolean {
    return this.#auth?.pending !== undefined;
  }

  /** How to log in, for the status of a server in `needs_login`. */
  login(): UpstreamLogin {
    const url = this.#auth?.pending?.url;
    return { command: `toolscript auth login ${this.#server}`, ...(url && { url }) };
  }

  /** Why calls cannot go yet, in words. */
  problem(): string {
    const { command, url } = this.login();
    return `waiting for an OAuth login: run \`${command}\`${url ? ` or open ${url}` : ""}`;
  }

  /**
   * Asks the client of a call or program waiting for this server to open the authorization
   * URL (URL-mode elicitation), once per login; a client that cannot is not asked. Asked
   * before the login has a URL, it asks when the login starts (`loginStarted`).
   */
  askClientToLogIn(signal: AbortSignal | undefined): void {
    const url = this.#auth?.pending?.url;
    if (!url) {
      if (signal?.aborted !== true) this.#askWhenPending.add(signal ?? new AbortController().signal);
      return;
    }
    if (!this.#askToOpenUrl || this.#askedToOpen === url) return;
    this.#askedToOpen = url;
    const message = `Sign in to ${this.#server} so ToolScript can use its tools.`;
    void this.#askToOpenUrl(this.#server, url, message, signal ?? new AbortController().signal).catch(
      () => {},
    );
  }

  /** The login has its URL: the waiters that wanted their client asked get it asked now. */
  #loginStarted(): void {
    const waiting = [...this.#askWhenPending].filter((signal) => !signal.aborted);
    this.#askWhenPending.clear();
    if (waiting.length > 0) this.askClientToLogIn(waiting[0]);
  }

  /** The server is ready or gone: nobody waits to be asked any more. */
  settled(): void {
    this.#askWhenPending.clear();
  }

  /**
   * Sends a request again after a `403 insufficient_scope` once the user granted the wider
   * scope (a new authorization), a bounded number of times: a server that keeps refusing fails.
   */
  async withStepUp<T>(send: () => Promise<T>): Promise<T> {
    for (let stepUps = 0; ; stepUps++) {
      try {
        return await send();
      } catch (error) {
        if (!(error instanceof InsufficientScopeError) || this.#auth === undefined) throw error;
        if (stepUps >= MAX_STEP_UPS) {
          const needs = error.requiredScope ? ` (needs "${error.requiredScope}")` : "";
          throw new Error(
            `the server still answers 403 insufficient_scope${needs} after ${MAX_STEP_UPS} re-authorizations`,
            { cause: error },
          );
        }
        await this.#auth.stepUp(error.requiredScope, error.resourceMetadataUrl);
      }
    }
  }

  close(): void {
    this.#auth?.close();
  }
}

/** A server configured with its own `Authorization` header: the gateway sends that, never OAuth. */
export function hasAuthorizationHeader(headers: Record<string, string>): boolean {
  return Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
}

/** The auth layer's "a person must log in" (src/auth/errors.ts), however deep the transport wrapped it. */
export function isLoginRequired(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if ((cause as { code?: unknown }).code === "auth.login_required") return true;
  }
  return false;
}
