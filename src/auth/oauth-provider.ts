import { randomBytes } from "node:crypto";
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { OAuthSettings } from "../config/servers.ts";
import { CALLBACK_PATH } from "./loopback-callback.ts";
import { type CredentialStore, loadCredentials, type ServerCredentials } from "./stored-credentials.ts";

export const CLIENT_NAME = "ToolScript";

/**
 * The SDK's view of one server's OAuth client (its `auth()` drives discovery,
 * registration, PKCE, the exchange and refreshes). Everything it saves goes to
 * the encrypted credential store at once (its promise resolves once stored), so
 * another process (`toolscript auth login` beside a running `serve`, another
 * replica) sees it; the PKCE verifier and `state` of a flow in progress stay in memory.
 */
export class GatewayOAuthProvider implements OAuthClientProvider {
  readonly #server: string;
  readonly #url: string;
  readonly #settings: OAuthSettings;
  readonly #store: CredentialStore;
  /** Called by `auth()` when the user must approve in a browser. */
  onRedirect: (url: URL) => void | Promise<void> = () => {};
  #verifier = "";
  #state = "";
  /** Port the redirect listener of the flow in progress listens on. */
  #port: number | undefined;
  /** The access token of the tokens last handed to the SDK: the ones a refused refresh refers to. */
  #handedOut: string | undefined;
  /** The record as last read or written: what the synchronous getters (`redirectUrl`) go by. */
  #last: ServerCredentials | undefined;
  /** Updates one after another: each reads what the one before wrote. */
  #updating: Promise<void> = Promise.resolve();

  constructor(server: string, url: string, settings: OAuthSettings, store: CredentialStore) {
    this.#server = server;
    this.#url = url;
    this.#settings = settings;
    this.#store = store;
  }

  /** The record as stored now (re-read each time: another process or replica may have logged in). */
  async credentials(): Promise<ServerCredentials> {
    const credentials = await loadCredentials(this.#store, this.#server, this.#url);
    this.#last = credentials;
    return credentials;
  }

  /** Reads, changes and stores the record; concurrent updates of this provider run in turn. */
  #update(change: (credentials: ServerCredentials) => void): Promise<void> {
    const run = this.#updating.then(async () => {
      const credentials = await this.credentials();
      change(credentials);
      await this.#store.put(this.#server, credentials);
    });
    this.#updating = run.catch(() => {});
    return run;
  }

  /** The port the next redirect URI uses: the configured one, the one registrations were made with, or none yet. */
  async preferredPort(): Promise<number | undefined> {
    return this.#settings.callbackPort ?? (await this.credentials()).redirectPort;
  }

  /** Starts a flow: the listener's port and a fresh `state`. */
  async beginFlow(port: number): Promise<string> {
    this.#port = port;
    this.#state = randomBytes(24).toString("base64url");
    if ((await this.credentials()).redirectPort !== port && this.#settings.callbackPort === undefined) {
      // Dynamic registrations name their redirect URI: a new port needs a new registration.
      await this.#update((credentials) => {
        credentials.redirectPort = port;
        credentials.clients = {};
      });
    }
    return this.#state;
  }

  get redirectUrl(): string {
    // Always defined: without one the SDK would take this for a machine-to-machine client.
    // Synchronous (the SDK's getter): the port as last read, which every flow reads first.
    const port = this.#port ?? this.#settings.callbackPort ?? this.#last?.redirectPort ?? 0;
    return `http://127.0.0.1:${port}${CALLBACK_PATH}`;
  }

  get clientMetadataUrl(): string | undefined {
    return this.#settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...(this.#settings.clientSecret === undefined &&
        this.#settings.clientId === undefined && { token_endpoint_auth_method: "none" }),
      ...(this.#settings.scopes && { scope: this.#settings.scopes }),
    };
  }

  state(): string {
    return this.#state;
  }

  async clientInformation(
    ctx?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    if (this.#settings.clientId !== undefined) {
      return {
        client_id: this.#settings.clientId,
        ...(this.#settings.clientSecret !== undefined && { client_secret: this.#settings.clientSecret }),
      };
    }
    const clients = (await this.credentials()).clients;
    if (ctx?.issuer !== undefined) return clients[ctx.issuer];
    return Object.values(clients).at(-1);
  }

  async saveClientInformation(
    information: StoredOAuthClientInformation,
    ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    // A pre-registered client lives in the config; the store never shadows it.
    if (this.#settings.clientId !== undefined) return;
    const issuer = ctx?.issuer ?? information.issuer ?? "";
    await this.#update((credentials) => {
      credentials.clients[issuer] = information;
    });
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    const tokens = (await this.credentials()).tokens?.value;
    this.#handedOut = tokens?.access_token;
    return tokens;
  }

  saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    return this.#update((credentials) => {
      const previous = credentials.tokens?.value;
      // A refresh answer may leave the refresh token out: the old one stays valid (RFC 6749 §6).
      const refresh =
        tokens.refresh_token ?? (previous?.issuer === tokens.issuer ? previous?.refresh_token : undefined);
      credentials.tokens = {
        value: { ...tokens, ...(refresh !== undefined && { refresh_token: refresh }) },
        savedAt: Date.now(),
      };
    });
  }

  redirectToAuthorization(url: URL): void | Promise<void> {
    return this.onRedirect(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    return this.#verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    return this.#update((credentials) => {
      credentials.discovery = state;
    });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.credentials()).discovery;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "verifier") {
      this.#verifier = "";
      return;
    }
    await this.#update((credentials) => {
      if (scope === "all" || scope === "client") credentials.clients = {};
      // After a refused refresh (invalid_grant) the SDK drops "the" tokens. When another process
      // has saved new ones since (it won the race to the rotating refresh token), those are
      // good: dropping them would log every process out.
      const replaced = credentials.tokens?.value.access_token !== this.#handedOut;
      if (scope === "all" || (scope === "tokens" && !replaced)) credentials.tokens = undefined;
      if (scope === "all" || scope === "discovery") credentials.discovery = undefined;
    });
  }
}
