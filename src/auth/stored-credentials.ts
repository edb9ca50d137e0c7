import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";

/**
 * What the gateway keeps per upstream server, sealed in the store (never in
 * logs, never reachable from programs). Bound to the server URL it was
 * obtained for: a config that points the name elsewhere starts afresh.
 */
export interface ServerCredentials {
  version: 1;
  url: string;
  /** Port of the loopback redirect URI the dynamic registrations were made with. */
  redirectPort?: number | undefined;
  /** Client registrations by authorization-server issuer (a server may move to another one). */
  clients: Record<string, StoredOAuthClientInformation>;
  tokens?: { value: StoredOAuthTokens; savedAt: number } | undefined;
  discovery?: OAuthDiscoveryState | undefined;
}

/** The encrypted per-server store (credential-vault.ts) as this folder uses it. */
export interface CredentialStore {
  get<T>(server: string): Promise<T | undefined>;
  put(server: string, value: unknown): Promise<void>;
  delete(server: string): Promise<boolean>;
}

export function emptyCredentials(url: string): ServerCredentials {
  return { version: 1, url, clients: {} };
}

/** The stored record for `server` at `url`, or a fresh one when none is stored for that URL. */
export async function loadCredentials(
  store: CredentialStore,
  server: string,
  url: string,
): Promise<ServerCredentials> {
  const stored = await store.get<ServerCredentials>(server);
  if (stored?.version !== 1 || stored.url !== url) return emptyCredentials(url);
  return { ...stored, clients: stored.clients ?? {} };
}

/** When the stored access token stops working (ms since epoch); undefined: no expiry was given. */
export function expiresAt(tokens: ServerCredentials["tokens"]): number | undefined {
  const seconds = tokens?.value.expires_in;
  return tokens && typeof seconds === "number" ? tokens.savedAt + seconds * 1000 : undefined;
}
