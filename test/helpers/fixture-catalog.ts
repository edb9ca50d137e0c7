// The fixture catalog (test/fixtures/catalog.json: the real tool definitions of 24 public MCP
// servers) and the config that connects its servers offline, each served by
// test/servers/fixture-catalog-server.mjs with its real definitions.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolDefinition } from "../../src/catalog/types.ts";
import { REPO_ROOT } from "./servers.ts";

export interface FixtureCatalogTool extends ToolDefinition {
  server: string;
}

export interface FixtureCatalog {
  /** Server names, in the catalog's order. */
  servers: string[];
  tools: FixtureCatalogTool[];
}

const CATALOG_SERVER = join(REPO_ROOT, "test/servers/fixture-catalog-server.mjs");

export function fixtureCatalog(): FixtureCatalog {
  const catalog = JSON.parse(readFileSync(join(REPO_ROOT, "test/fixtures/catalog.json"), "utf8")) as {
    servers: Array<{ server: string }>;
    tools: FixtureCatalogTool[];
  };
  return { servers: catalog.servers.map(({ server }) => server), tools: catalog.tools };
}

/** `mcpServers` entries serving the named catalog servers (all 24 by default), keyed by their catalog names. */
export function fixtureServerConfigs(
  servers: readonly string[] = fixtureCatalog().servers,
): Record<string, { command: string; args: string[] }> {
  return Object.fromEntries(
    servers.map((server) => [
      server,
      { command: process.execPath, args: [CATALOG_SERVER, "--server", server] },
    ]),
  );
}
