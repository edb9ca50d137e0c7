import { dirname } from "node:path";
import { VAULT_KEY_ENV } from "../privacy/vault-crypto.ts";
import { type OpenFailure, openSealedText, sealText } from "../secrets/aes-gcm-seal.ts";
import type { SharedStore } from "../store/domains.ts";
import { MEMORY_LOCATION } from "../store/open-database.ts";
import type { CredentialInfo } from "../store/types.ts";
import {
  type CredentialKey,
  CredentialKeyError,
  type CredentialKeySource,
  loadCredentialKey,
} from "./credential-key.ts";

/** Names the sealed format and, with the server name, the additional data `toolscript-credentials:v1:<server>`. */
const FORMAT = "toolscript-credentials";

export interface CredentialVaultOptions {
  store: Pick<SharedStore, "engine" | "location" | "credentials">;
  /**
   * The store's data directory, where the key file lives when no
   * `TOOLSCRIPT_VAULT_KEY` is set (SQLite only). Absent: the directory of
   * `store`'s database file, or none for an in-memory store (then the key lives
   * in memory too).
   */
  dataDir?: string | undefined;
  /** Default `process.env`. */
  env?: Record<string, string | undefined> | undefined;
  /** Default: stderr. Told when stored credentials cannot be opened; never told their contents. */
  logger?: { warn(message: string): void } | undefined;
}

/**
 * OAuth credentials of upstream servers (tokens, registered clients), one JSON
 * value per server, sealed with AES-256-GCM before they reach the store. The
 * server name is bound as additional data, so a blob copied to another
 * server's row does not open there. A blob that does not open (another key,
 * altered data) reads as absent, with one warning: the caller asks the user to
 * log in again, nothing crashes.
 *
 * On a PostgreSQL store the key must be `TOOLSCRIPT_VAULT_KEY`: replicas share
 * no data directory to keep a key file in, and a key of one replica's own
 * would seal what the others cannot open. Without it, reading or storing
 * credentials throws `auth.credential_key` naming the variable.
 */
export class CredentialVault {
  /** Where the key came from, for `toolscript auth status`; `missing`: none (PostgreSQL without the variable). */
  readonly keySource: CredentialKeySource | "missing";
  /** The key file, when `keySource` is `file`. */
  readonly keyFile: string | undefined;
  readonly #store: CredentialVaultOptions["store"];
  readonly #key: Buffer | undefined;
  readonly #warn: (message: string) => void;
  /** Per server, the sealed text last warned about: the same unreadable blob is reported once. */
  readonly #warned = new Map<string, string>();

  private constructor(
    store: CredentialVaultOptions["store"],
    key: CredentialKey | undefined,
    warn: (message: string) => void,
  ) {
    this.#store = store;
    this.#key = key?.key;
    this.keySource = key?.source ?? "missing";
    this.keyFile = key?.file;
    this.#warn = warn;
  }

  /**
   * Loads or creates the key; throws `CredentialKeyError` (`auth.credential_key`)
   * when it cannot be used. On PostgreSQL without `TOOLSCRIPT_VAULT_KEY` it opens
   * keyless: `get` and `put` then throw, `list` and `delete` work.
   */
  static open(options: CredentialVaultOptions): CredentialVault {
    const { engine, location } = options.store;
    const env = options.env ?? process.env;
    const logger = options.logger;
    const warn = logger
      ? (message: string) => logger.warn(message)
      : (message: string) => process.stderr.write(`[toolscript] warning: ${message}\n`);
    if (engine === "postgres") {
      // No data directory: the environment's key, or none (never one in memory, lost at exit).
      const loaded = loadCredentialKey(env, undefined);
      return new CredentialVault(options.store, loaded.source === "env" ? loaded : undefined, warn);
    }
    // A persistent store without its directory given still gets a key that persists with it.
    const dataDir = options.dataDir ?? (location === MEMORY_LOCATION ? undefined : dirname(location));
    return new CredentialVault(options.store, loadCredentialKey(env, dataDir), warn);
  }

  /**
   * The value stored for `server`, or undefined when there is none or it does
   * not open. `T` is what the caller stored; it is not checked here.
   */
  async get<T>(server: string): Promise<T | undefined> {
    const key = this.#requireKey(server);
    const blob = await this.#store.credentials.get(server);
    if (blob === undefined) return undefined;
    const sealed = Buffer.from(blob).toString("utf8");
    const opened = openSealedText(sealed, key, FORMAT, server);
    if (!opened.ok) {
      this.#unreadable(server, sealed, this.#explain(opened));
      return undefined;
    }
    try {
      const value = JSON.parse(opened.plain) as T;
      this.#warned.delete(server);
      return value;
    } catch {
      this.#unreadable(server, sealed, "its decrypted contents are not JSON");
      return undefined;
    }
  }

  /** Seals `value` (anything JSON can hold) for `server`, replacing what was stored. */
  async put(server: string, value: unknown): Promise<void> {
    const key = this.#requireKey(server);
    const json = JSON.stringify(value);
    if (json === undefined)
      throw new TypeError(`credentials for server ${JSON.stringify(server)} are not JSON values`);
    await this.#store.credentials.put(server, Buffer.from(sealText(json, key, FORMAT, server), "utf8"));
    this.#warned.delete(server);
  }

  delete(server: string): Promise<boolean> {
    this.#warned.delete(server);
    return this.#store.credentials.delete(server);
  }

  /** The servers with stored credentials (readable or not), sorted by name. */
  list(): Promise<CredentialInfo[]> {
    return this.#store.credentials.list();
  }

  #requireKey(server: string): Buffer {
    if (this.#key) return this.#key;
    throw new CredentialKeyError(
      "auth.credential_key",
      `the OAuth credentials of server ${JSON.stringify(server)} are kept in the PostgreSQL store ${this.#store.location}, which needs ${VAULT_KEY_ENV} (base64, 32 bytes; the same on every replica) to seal them: replicas share no data directory for a key file`,
      { env: VAULT_KEY_ENV, server },
    );
  }

  #unreadable(server: string, sealed: string, why: string): void {
    if (this.#warned.get(server) === sealed) return;
    this.#warned.set(server, sealed);
    this.#warn(
      `the stored OAuth credentials of server ${JSON.stringify(server)} cannot be opened: ${why}; ` +
        `they are ignored until you log in again (toolscript auth login ${server})`,
    );
  }

  #explain(failure: OpenFailure): string {
    if (failure.reason !== "locked") return "they are not sealed credentials (unknown format)";
    const key =
      this.keySource === "env"
        ? VAULT_KEY_ENV
        : this.keySource === "file"
          ? `the key in ${this.keyFile}`
          : "this process's in-memory key";
    return `they were sealed with a key other than ${key}, or for another server, or altered`;
  }
}
