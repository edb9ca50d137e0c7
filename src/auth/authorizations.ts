import type { FetchLike } from "@modelcontextprotocol/client";
import type { OAuthSettings } from "../config/servers.ts";
import type { UpstreamServerConfig } from "../upstream/types.ts";
import { openBrowser } from "./browser.ts";
import { ServerAuthorization } from "./server-authorization.ts";
import type { CredentialStore, ServerCredentials } from "./stored-credentials.ts";

export interface AuthorizationsOptions {
  /** The encrypted credential store; resolved on first use (the gateway opens its store in start()). */
  credentials: () => CredentialStore;
  /** OAuth settings by server name (the `oauth` key of each `mcpServers` entry). */
  settings: ReadonlyMap<string, OAuthSettings>;
  /** May a login ask a person (open a browser and wait)? */
  interactive: boolean;
  loginTimeoutMs?: number | undefined;
  /** Shows the authorization URL; default: `$BROWSER`, xdg-open or open, and the URL on stderr. */
  openUrl?: ((url: string) => Promise<unknown>) | undefined;
  /** Told every token and client secret as it is read or stored, so none ever leaves in an answer or a log. */
  onSecret?: ((...secrets: string[]) => void) | undefined;
  fetch?: FetchLike | undefined;
}

/**
 * The OAuth side of every HTTP upstream: one ServerAuthorization per server,
 * made when its connection is (UpstreamOptions.authorize), and found by name
 * for `toolscript auth` and the front end.
 */
export class Authorizations {
  readonly #options: AuthorizationsOptions;
  readonly #byServer = new Map<string, ServerAuthorization>();

  constructor(options: AuthorizationsOptions) {
    this.#options = options;
  }

  /** For UpstreamOptions.authorize. */
  readonly authorize = (config: UpstreamServerConfig & { kind: "http" }): ServerAuthorization =>
    this.forServer(config.name, String(config.url));

  forServer(server: string, url: string): ServerAuthorization {
    const existing = this.#byServer.get(server);
    if (existing) return existing;
    const authorization = new ServerAuthorization({
      server,
      url,
      settings: this.#options.settings.get(server) ?? {},
      store: this.#watchedStore(),
      interactive: this.#options.interactive,
      loginTimeoutMs: this.#options.loginTimeoutMs,
      openUrl: this.#options.openUrl ?? ((target) => openBrowser(target)),
      fetch: this.#options.fetch,
    });
    this.#byServer.set(server, authorization);
    return authorization;
  }

  get(server: string): ServerAuthorization | undefined {
    return this.#byServer.get(server);
  }

  all(): ServerAuthorization[] {
    return [...this.#byServer.values()];
  }

  close(): void {
    for (const authorization of this.#byServer.values()) authorization.close();
  }

  /** The credential store, with every secret passing through it told to `onSecret`. */
  #watchedStore(): CredentialStore {
    const report = (value: unknown) => {
      const credentials = value as Partial<ServerCredentials> | undefined;
      if (!credentials || !this.#options.onSecret) return;
      const secrets = [
        credentials.tokens?.value.access_token,
        credentials.tokens?.value.refresh_token,
        ...Object.values(credentials.clients ?? {}).map((client) => client.client_secret),
      ].filter((secret): secret is string => typeof secret === "string" && secret.length > 0);
      if (secrets.length > 0) this.#options.onSecret(...secrets);
    };
    return {
      get: async <T>(server: string) => {
        const value = await this.#options.credentials().get<T>(server);
        report(value);
        return value;
      },
      put: (server, value) => {
        report(value);
        return this.#options.credentials().put(server, value);
      },
      delete: (server) => this.#options.credentials().delete(server),
    };
  }
}
