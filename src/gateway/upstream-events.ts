import type { UpstreamManagerEvents } from "../upstream/manager.ts";

/**
 * Everything the upstream manager reports (tool lists, status, log messages,
 * prompt and resource list changes, resource updates), to any number of
 * listeners: the catalog, the pass-through sources, the front end's log
 * forwarding. A listener that throws does not keep the others from hearing.
 */
export class UpstreamEventFanOut {
  readonly #listeners = new Set<UpstreamManagerEvents>();
  readonly #report: (error: unknown) => void;

  constructor(report: (error: unknown) => void) {
    this.#report = report;
  }

  /** Adds a listener; returns its removal. */
  on(listener: UpstreamManagerEvents): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The events to give the manager: each one reaches every listener. */
  readonly events: Required<UpstreamManagerEvents> = {
    onToolsChanged: (server, tools) => this.#each((listener) => listener.onToolsChanged?.(server, tools)),
    onStatusChanged: (status) => this.#each((listener) => listener.onStatusChanged?.(status)),
    onLog: (server, params) => this.#each((listener) => listener.onLog?.(server, params)),
    onListChanged: (server, kind) => this.#each((listener) => listener.onListChanged?.(server, kind)),
    onResourceUpdated: (server, uri) => this.#each((listener) => listener.onResourceUpdated?.(server, uri)),
  };

  #each(deliver: (listener: UpstreamManagerEvents) => void): void {
    for (const listener of [...this.#listeners]) {
      try {
        deliver(listener);
      } catch (error) {
        this.#report(error);
      }
    }
  }
}
