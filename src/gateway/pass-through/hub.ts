import type { Config } from "../../config/schema.ts";
import type { UpstreamManager } from "../../upstream/manager.ts";
import type { LogLevel, UpstreamOptions } from "../../upstream/types.ts";
import type { ProgramDeps } from "../run-program.ts";
import type { UpstreamEventFanOut } from "../upstream-events.ts";
import { LegacyTwins } from "./legacy-twins.ts";
import { createPassThroughSources, type PassThroughSources } from "./sources.ts";

/**
 * The gateway's pass-through side: the sources of `toolscript.passThrough` (built
 * on first use, when a front end is wired) and the 2025-era twin connections they
 * need, started only then: `toolscript run` and `tools` never spawn them.
 */
export class PassThroughHub {
  readonly #twins: LegacyTwins;
  readonly #upstream: UpstreamManager;
  #sources: PassThroughSources | undefined;
  #gatewayStarted = false;
  #twinsStarted = false;

  constructor(
    config: Config,
    upstream: UpstreamManager,
    options: Partial<UpstreamOptions>,
    events: UpstreamEventFanOut,
    report: (error: unknown) => void,
  ) {
    this.#upstream = upstream;
    this.#twins = new LegacyTwins(config, options, report);
    // The twins' log messages reach the same listeners as the first connections'.
    this.#twins.events.on({ onLog: (server, params) => events.events.onLog(server, params) });
  }

  sources(deps: ProgramDeps, events: UpstreamEventFanOut): PassThroughSources {
    if (!this.#sources) {
      this.#sources = createPassThroughSources(deps, events, this.#twins);
      if (this.#gatewayStarted) this.#startTwins();
    }
    return this.#sources;
  }

  /** The gateway's upstreams are starting: twins already asked for start with them. */
  started(): void {
    this.#gatewayStarted = true;
    if (this.#sources) this.#startTwins();
  }

  setLoggingLevel(level: LogLevel): Promise<void> {
    return this.#twins.setLoggingLevel(level);
  }

  close(): Promise<void> {
    return this.#twins.close();
  }

  #startTwins(): void {
    if (this.#twinsStarted) return;
    this.#twinsStarted = true;
    this.#twins.start((server) => this.#upstream.connection(server));
  }
}
