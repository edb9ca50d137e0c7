import {
  type AuthProvider,
  auth,
  extractWWWAuthenticateParams,
  type FetchLike,
} from "@modelcontextprotocol/client";
import type { OAuthSettings } from "../config/servers.ts";
import { AuthError } from "./errors.ts";
import { listenForCallback } from "./loopback-callback.ts";
import { GatewayOAuthProvider } from "./oauth-provider.ts";
import { type CredentialStore, expiresAt } from "./stored-credentials.ts";

/** A token this close to its expiry is refreshed before use. */
const REFRESH_AHEAD_MS = 60_000;
export const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60_000;

export interface ServerAuthorizationOptions {
  server: string;
  url: string;
  settings: OAuthSettings;
  store: CredentialStore;
  /** May this process ask a person (open a browser and wait for the redirect)? */
  interactive: boolean;
  /** How long a person has to approve in the browser. */
  loginTimeoutMs?: number | undefined;
  /** Shows the authorization URL to the person (opens a browser); must not wait for them. */
  openUrl: (url: string) => Promise<unknown>;
  /** For discovery, registration and token requests (tests; the transport passes its own on 401). */
  fetch?: FetchLike | undefined;
}

/** A login waiting for a person: what they must open, and the command that does it from a shell. */
export interface PendingLogin {
  url: string;
  command: string;
}

export type AuthorizationState = "logged in" | "expired" | "needs login";

export interface AuthorizationStatus {
  server: string;
  url: string;
  state: AuthorizationState;
  expiresAt?: string | undefined;
  scopes?: string | undefined;
  issuer?: string | undefined;
  clientId?: string | undefined;
  refreshable: boolean;
}

/** Thrown inside the SDK's `auth()` to stop it before a redirect when nobody can approve one. */
class RedirectNeeded extends Error {}

/**
 * OAuth for one upstream server: the `AuthProvider` its transport uses (a
 * token per request; on 401 a refresh, else a login in the browser) plus the
 * login, step-up, status and logout the CLI and the connection need. One
 * authorization at a time: concurrent 401s share it.
 */
export class ServerAuthorization {
  readonly server: string;
  readonly oauth: GatewayOAuthProvider;
  readonly #options: ServerAuthorizationOptions;
  #inFlight: Promise<void> | undefined;
  #pending: PendingLogin | undefined;
  /** Cleared when a login went unanswered: retries then stop opening the browser until login() is called. */
  #askPerson = true;
  readonly #closing = new AbortController();
  /** Told when a login starts waiting for a person and when it ends. */
  onPendingChange: ((pending: PendingLogin | undefined) => void) | undefined;

  constructor(options: ServerAuthorizationOptions) {
    this.server = options.server;
    this.#options = options;
    this.oauth = new GatewayOAuthProvider(options.server, options.url, options.settings, options.store);
  }

  /** What the transport calls: `token()` before each request, `onUnauthorized` on a 401. */
  get transportProvider(): AuthProvider {
    return {
      token: () => this.token(),
      onUnauthorized: async (ctx) => {
        const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(ctx.response);
        // Tokens that were refused may come from an authorization server the resource left:
        // discovery is done afresh so a move (its metadata names a new server) is followed.
        if ((await this.oauth.tokens()) !== undefined) await this.oauth.invalidateCredentials("discovery");
        await this.authorize({ scope, resourceMetadataUrl, fetch: ctx.fetchFn });
      },
    };
  }

  get pending(): PendingLogin | undefined {
    return this.#pending;
  }

  /** The access token to send, refreshed first when it is about to expire. */
  async token(): Promise<string | undefined> {
    const stored = (await this.oauth.credentials()).tokens;
    if (stored === undefined) return undefined;
    const expiry = expiresAt(stored);
    if (this.#inFlight) {
      // Another request is refreshing or logging in: its token is the one to send.
      await this.#inFlight.catch(() => {});
    } else if (expiry !== undefined && expiry - Date.now() < REFRESH_AHEAD_MS && stored.value.refresh_token) {
      // One refresh for all requests (a rotated refresh token works once). A failed refresh
      // leaves the old token: the server's 401 then starts a full authorization.
      await this.#single(() => this.#withoutPerson({})).catch(() => {});
    }
    return (await this.oauth.credentials()).tokens?.value.access_token;
  }

  /**
   * Re-authorizes for a wider scope after `403 insufficient_scope`: the union
   * of what was granted and what the server asks for, with a person (a refresh
   * cannot widen a grant).
   */
  async stepUp(scope: string | undefined, resourceMetadataUrl: URL | undefined): Promise<void> {
    const granted = (await this.oauth.tokens())?.scope;
    const union = [...new Set(`${granted ?? ""} ${scope ?? ""}`.split(/\s+/).filter(Boolean))].join(" ");
    await this.authorize({ scope: union || undefined, resourceMetadataUrl, force: true });
  }

  /** `toolscript auth login`: a fresh authorization with a person, whatever is stored. */
  login(): Promise<void> {
    this.#askPerson = true;
    return this.authorize({ force: true });
  }

  async logout(): Promise<boolean> {
    const had = (await this.oauth.tokens()) !== undefined;
    await this.oauth.invalidateCredentials("all");
    return had;
  }

  async status(): Promise<AuthorizationStatus> {
    const credentials = await this.oauth.credentials();
    const tokens = credentials.tokens;
    const expiry = expiresAt(tokens);
    const refreshable = tokens?.value.refresh_token !== undefined;
    const state: AuthorizationState =
      tokens === undefined
        ? "needs login"
        : expiry !== undefined && expiry <= Date.now()
          ? "expired"
          : "logged in";
    const issuer = tokens?.value.issuer;
    const clientId = (await this.oauth.clientInformation(issuer ? { issuer } : undefined))?.client_id;
    return {
      server: this.server,
      url: this.#options.url,
      state,
      refreshable,
      ...(expiry !== undefined && { expiresAt: new Date(expiry).toISOString() }),
      ...(tokens?.value.scope && { scopes: tokens.value.scope }),
      ...(issuer && { issuer }),
      ...(clientId !== undefined && { clientId }),
    };
  }

  /** Ends a login waiting for a person (the gateway is closing). */
  close(): void {
    this.#closing.abort(
      new AuthError("auth.login_required", `login to ${this.server} was abandoned: closing`),
    );
  }

  /**
   * Makes the stored tokens usable: a refresh when one can do, else, when this
   * process may ask a person, a login in the browser. Rejects with
   * `auth.login_required` when a person is needed and cannot be asked.
   */
  authorize(request: AuthorizeRequest): Promise<void> {
    return this.#single(() => this.#authorize(request));
  }

  /** Runs `work` unless an authorization or refresh is under way; then waits for that one. */
  #single(work: () => Promise<void>): Promise<void> {
    this.#inFlight ??= work().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  async #authorize(request: AuthorizeRequest): Promise<void> {
    const stored = (await this.oauth.credentials()).tokens;
    if (!request.force && stored?.value.refresh_token !== undefined) {
      try {
        await this.#withoutPerson(request);
        return;
      } catch (error) {
        if (!(error instanceof RedirectNeeded)) throw this.#failure(error);
      }
    }
    if (!this.#options.interactive || !this.#askPerson) throw this.#loginRequired();
    await this.#withPerson(request);
  }

  async #withoutPerson(request: AuthorizeRequest): Promise<void> {
    this.oauth.onRedirect = () => {
      throw new RedirectNeeded();
    };
    const result = await auth(this.oauth, this.#authOptions(request));
    if (result !== "AUTHORIZED") throw new RedirectNeeded();
  }

  async #withPerson(request: AuthorizeRequest): Promise<void> {
    const callback = await listenForCallback((await this.oauth.preferredPort()) ?? 0, this.server).catch(() =>
      // The remembered port is taken: another one, with a new registration.
      listenForCallback(this.#options.settings.callbackPort ?? 0, this.server),
    );
    try {
      const state = await this.oauth.beginFlow(callback.port);
      let approvalUrl: URL | undefined;
      this.oauth.onRedirect = (url) => {
        approvalUrl = url;
      };
      const first = await auth(this.oauth, {
        ...this.#authOptions(request),
        forceReauthorization: request.force,
      });
      if (first === "AUTHORIZED") return;
      if (approvalUrl === undefined)
        throw new AuthError("auth.failed", `${this.server}: no authorization URL`, {});
      this.#setPending({ url: approvalUrl.href, command: `toolscript auth login ${this.server}` });
      void this.#options.openUrl(approvalUrl.href).catch(() => {});
      const timeoutMs = this.#options.loginTimeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([timeout, this.#closing.signal]);
      const params = await callback.wait(state, signal).catch((error: unknown) => {
        if (timeout.aborted) {
          this.#askPerson = false;
          throw new AuthError(
            "auth.login_required",
            `${this.server} needs a login, and none was completed within ${Math.round(timeoutMs / 1000)} s: run \`toolscript auth login ${this.server}\``,
            { server: this.server },
          );
        }
        throw signal.aborted ? signal.reason : error;
      });
      const code = params.get("code") ?? "";
      const iss = params.get("iss") ?? undefined;
      const result = await auth(this.oauth, { ...this.#authOptions(request), authorizationCode: code, iss });
      if (result !== "AUTHORIZED")
        throw new AuthError("auth.failed", `${this.server}: the code was not accepted`, {});
    } catch (error) {
      throw this.#failure(error);
    } finally {
      callback.close();
      this.#setPending(undefined);
    }
  }

  #authOptions(request: AuthorizeRequest) {
    const scope = request.scope ?? this.#options.settings.scopes;
    const fetchFn = request.fetch ?? this.#options.fetch;
    return {
      serverUrl: this.#options.url,
      ...(scope && { scope }),
      ...(request.resourceMetadataUrl && { resourceMetadataUrl: request.resourceMetadataUrl }),
      ...(fetchFn && { fetchFn }),
    };
  }

  #setPending(pending: PendingLogin | undefined): void {
    this.#pending = pending;
    this.onPendingChange?.(pending);
  }

  #loginRequired(): AuthError {
    return new AuthError(
      "auth.login_required",
      `${this.server} needs a login: run \`toolscript auth login ${this.server}\``,
      { server: this.server, command: `toolscript auth login ${this.server}` },
    );
  }

  #failure(error: unknown): Error {
    if (error instanceof AuthError) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new AuthError(
      "auth.failed",
      `authorizing with ${this.server} failed: ${message}`,
      { server: this.server },
      {
        cause: error,
      },
    );
  }
}

export interface AuthorizeRequest {
  scope?: string | undefined;
  resourceMetadataUrl?: URL | undefined;
  /** Skip the refresh: a new grant is needed (login, wider scope). */
  force?: boolean | undefined;
  fetch?: FetchLike | undefined;
}
