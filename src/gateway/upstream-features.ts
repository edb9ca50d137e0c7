import { ResourceRoutes } from "../bridge/resource-routes.ts";
import { UpstreamFeatures } from "../upstream/features.ts";
import type { UpstreamManager } from "../upstream/manager.ts";

/** Sessions whose remembered resource URIs are kept; the least recently used is dropped past it. */
const MAX_SESSIONS = 1000;

/**
 * The gateway's side of resources and prompts: each server's feature methods
 * (one object per connection), and per session the URIs its tool results and
 * listings named, so `resources.read(uri)` asks the server that gave it.
 */
export class UpstreamFeatureGlue {
  readonly #upstream: UpstreamManager;
  readonly #features = new Map<string, UpstreamFeatures>();
  readonly #routes = new Map<string, ResourceRoutes>();

  constructor(upstream: UpstreamManager) {
    this.#upstream = upstream;
  }

  /** A server's feature methods; undefined for a name the gateway does not know. */
  features(server: string): UpstreamFeatures | undefined {
    let features = this.#features.get(server);
    if (!features && this.#upstream.serverNames.includes(server)) {
      features = new UpstreamFeatures(this.#upstream.connection(server));
      this.#features.set(server, features);
    }
    return features;
  }

  /**
   * A server said its resources changed (`notifications/resources/list_changed`, which covers
   * templates too): every session asks it for its templates again before routing a URI by them.
   */
  resourcesChanged(server: string): void {
    for (const routes of this.#routes.values()) routes.forgetTemplates(server);
  }

  /** The session's remembered URIs and templates. */
  routes(session: string): ResourceRoutes {
    let routes = this.#routes.get(session);
    if (routes) {
      this.#routes.delete(session);
    } else {
      routes = new ResourceRoutes();
      if (this.#routes.size >= MAX_SESSIONS) {
        const oldest = this.#routes.keys().next();
        if (!oldest.done) this.#routes.delete(oldest.value);
      }
    }
    this.#routes.set(session, routes);
    return routes;
  }
}
