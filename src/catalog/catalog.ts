import type { ToolNamespace } from "../sandbox/types.ts";
import { closeMatches } from "./close-matches.ts";
import { assignIdentifiers, buildCatalogTools } from "./naming.ts";
import type { CatalogTool, ToolDefinition } from "./types.ts";

export interface CatalogServer {
  server: string;
  serverId: string;
  tools: readonly CatalogTool[];
}

export type CatalogListener = (server: string) => void;

/**
 * Every tool of every configured server, namespaced by server. Server
 * identifiers are assigned once over the configured names, so a server that
 * connects late or reconnects keeps the same `tools.<serverId>` path.
 */
export class Catalog {
  readonly #servers = new Map<string, CatalogServer>();
  readonly #listeners = new Set<CatalogListener>();
  /** Built on first use after a change: every execution asks for it, tools rarely change. */
  #namespace: ToolNamespace | undefined;
  /**
   * Each server's last non-empty tools. The sandbox keeps offering them while the
   * server restarts, so a call says "server … is restarting", not "Unknown tool".
   */
  readonly #lastKnown = new Map<string, readonly CatalogTool[]>();
  #version = 0;

  constructor(serverNames: readonly string[]) {
    const ids = assignIdentifiers(serverNames);
    for (const server of serverNames) {
      this.#servers.set(server, { server, serverId: ids.get(server) ?? server, tools: [] });
    }
  }

  /** Replaces one server's tools (on connect, reconnect or `list_changed`). */
  setServerTools(server: string, definitions: readonly ToolDefinition[]): void {
    const entry = this.#servers.get(server);
    if (!entry) throw new Error(`catalog has no server named "${server}"`);
    const tools = buildCatalogTools(server, entry.serverId, [...definitions]);
    this.#servers.set(server, { ...entry, tools });
    if (tools.length > 0) this.#lastKnown.set(server, tools);
    this.#namespace = undefined;
    this.#version += 1;
    for (const listener of this.#listeners) listener(server);
  }

  /** Changes with every `setServerTools`: what was derived from the tools (declarations) is stale. */
  get version(): number {
    return this.#version;
  }

  onChange(listener: CatalogListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  servers(): CatalogServer[] {
    return [...this.#servers.values()];
  }

  server(nameOrId: string): CatalogServer | undefined {
    return this.#servers.get(nameOrId) ?? this.servers().find((entry) => entry.serverId === nameOrId);
  }

  tools(): CatalogTool[] {
    return this.servers().flatMap((entry) => entry.tools);
  }

  /**
   * Finds a tool by any name an agent or user may write: `server/tool`,
   * `serverId.toolId`, `tools.serverId.toolId`, with original names or identifiers.
   */
  find(name: string): CatalogTool | undefined {
    const trimmed = name.trim().replace(/^tools\./, "");
    for (const separator of ["/", ".", ":"]) {
      const at = trimmed.indexOf(separator);
      if (at <= 0) continue;
      const server = this.server(trimmed.slice(0, at));
      const tool = trimmed.slice(at + 1);
      const found = server?.tools.find((entry) => entry.tool === tool || entry.toolId === tool);
      if (found) return found;
    }
    return undefined;
  }

  /**
   * Close matches for a name that was not found, for "did you mean" errors:
   * ranked by edit distance (closeMatches, the sandbox's own ranking) within
   * the named server when it exists, else over every `server/tool`; a name
   * that is no typo (`filesystem read`) falls back to tools sharing its words.
   */
  suggest(name: string, limit = 3): CatalogTool[] {
    const trimmed = name.trim().replace(/^tools\./, "");
    const at = trimmed.search(/[/.:]/);
    const server = at > 0 ? this.server(trimmed.slice(0, at)) : undefined;
    const candidates = server ? server.tools : this.tools();
    const wanted = server ? trimmed.slice(at + 1) : trimmed;
    const byName = new Map<string, CatalogTool>();
    for (const tool of candidates) {
      const names = server ? [tool.tool, tool.toolId] : [`${tool.server}/${tool.tool}`, tool.path];
      for (const key of names) if (!byName.has(key)) byName.set(key, tool);
    }
    const ranked = new Set<CatalogTool>();
    for (const key of closeMatches(wanted, [...byName.keys()], limit * 2)) {
      const tool = byName.get(key);
      if (tool) ranked.add(tool);
    }
    if (ranked.size > 0) return [...ranked].slice(0, limit);
    const words = name
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
    return this.tools()
      .map((tool) => ({ tool, hits: words.filter((word) => tool.path.toLowerCase().includes(word)).length }))
      .filter((entry) => entry.hits > 0)
      .sort((a, b) => b.hits - a.hits)
      .slice(0, limit)
      .map((entry) => entry.tool);
  }

  /** The `tools` object the sandbox exposes: identifiers → original names. */
  namespace(): ToolNamespace {
    if (this.#namespace) return this.#namespace;
    const namespace: ToolNamespace = {};
    for (const entry of this.#servers.values()) {
      const tools: Record<string, string> = {};
      const known = entry.tools.length > 0 ? entry.tools : (this.#lastKnown.get(entry.server) ?? []);
      for (const tool of known) tools[tool.toolId] = tool.tool;
      namespace[entry.serverId] = { server: entry.server, tools };
    }
    this.#namespace = namespace;
    return namespace;
  }
}
