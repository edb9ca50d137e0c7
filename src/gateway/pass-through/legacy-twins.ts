import type { Config } from "../../config/schema.ts";
import type { UpstreamConnection } from "../../upstream/connection.ts";
import { UpstreamFeatures } from "../../upstream/features.ts";
import { UpstreamManager } from "../../upstream/manager.ts";
import type { LogLevel, UpstreamOptions, UpstreamServerConfig } from "../../upstream/types.ts";
import { UpstreamEventFanOut } from "../upstream-events.ts";

/** The revision whose servers may offer a different surface than to 2025-era clients. */
export const MODERN_REVISION = "2026-07-28";

/**
 * The principle of pass-through across protocol eras: a front-end client sees what
 * a direct connection in its own era would show. A server that speaks both eras may
 * offer each a different surface (2026-07-28 tools that ask through input-required
 * results; 2025-era sampling requests, logging, subscriptions, completions), so for
 * each passed-through server whose era is "auto" a second connection speaks the 2025
 * handshake ("legacy") for 2025-era clients. It is opened beside the first one and
 * closed as soon as the first one turns out to speak a 2025 revision too (then one
 * connection serves both eras). Programs always use the first connection.
 */
export class LegacyTwins {
  readonly events: UpstreamEventFanOut;
  readonly #manager: UpstreamManager;
  readonly #features = new Map<string, UpstreamFeatures>();
  readonly #closed = new Set<string>();

  constructor(config: Config, options: Partial<UpstreamOptions>, report: (error: unknown) => void) {
    this.events = new UpstreamEventFanOut(report);
    const twins: UpstreamServerConfig[] = config.servers
      .filter((server) => Object.hasOwn(config.settings.passThrough, server.name))
      .filter((server) => !server.disabled && (server.era ?? "auto") === "auto")
      .map((server) => ({
        ...(server.kind === "stdio" ? { ...server, cwd: server.cwd ?? config.baseDir } : server),
        era: "legacy" as const,
      }));
    this.#manager = new UpstreamManager(twins, options, this.events.events);
  }

  /** Starts every twin; each closes itself when `primary(server)` settles on a 2025 revision. */
  start(primary: (server: string) => UpstreamConnection): void {
    for (const server of this.#manager.serverNames) {
      void this.#manager.connection(server).start();
      const first = primary(server);
      void first.settled().then(() => {
        const version = first.status().protocolVersion;
        if (version !== undefined && version < MODERN_REVISION) void this.#close(server);
      });
    }
  }

  /** The twin of `server` while it is in use; undefined when there is none (or it was closed). */
  connection(server: string): UpstreamConnection | undefined {
    if (!this.#manager.serverNames.includes(server) || this.#closed.has(server)) return undefined;
    return this.#manager.connection(server);
  }

  features(server: string): UpstreamFeatures | undefined {
    const connection = this.connection(server);
    if (connection === undefined) return undefined;
    let features = this.#features.get(server);
    if (!features) {
      features = new UpstreamFeatures(connection);
      this.#features.set(server, features);
    }
    return features;
  }

  setLoggingLevel(level: LogLevel): Promise<void> {
    return this.#manager.setLoggingLevel(level);
  }

  close(): Promise<void> {
    return this.#manager.close();
  }

  async #close(server: string): Promise<void> {
    this.#closed.add(server);
    await this.#manager.connection(server).close();
  }
}
