import { basename, resolve } from "node:path";
import type { Config } from "../config/schema.ts";
import type { ServerConfig } from "../config/servers.ts";

/**
 * Whether a configured server is this gateway itself. A project's `.mcp.json`
 * usually lists `toolscript serve` for Claude Code; read back by that very
 * `serve` (started in the project folder), the entry would start another
 * gateway, which reads the same file and starts another, without end. An entry
 * is this gateway when it runs `toolscript … serve` (by name, `npx toolscript`,
 * or a path to `bin/toolscript.js`) with no `--config`, or with `--config`
 * naming `configFile`.
 */
export function isThisGateway(
  server: ServerConfig,
  configFile: string | undefined,
  baseDir: string,
): boolean {
  if (server.kind !== "stdio") return false;
  const words = [server.command, ...server.args];
  const runsToolscript = words.some(
    (word) =>
      /^toolscript(@[^/\s]*)?$|(^|[/\\])toolscript(\.js)?$/.test(word) || basename(word) === "toolscript.js",
  );
  if (!runsToolscript || !server.args.includes("serve")) return false;
  const at = server.args.findIndex((arg) => arg === "--config" || arg.startsWith("--config="));
  if (at < 0) return true;
  const arg = server.args[at] ?? "";
  const named = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : server.args[at + 1];
  return (
    named !== undefined && configFile !== undefined && resolve(server.cwd ?? baseDir, named) === configFile
  );
}

/** The config without the servers that are this gateway (see isThisGateway), and their names. */
export function withoutThisGateway(config: Config): { config: Config; left: string[] } {
  const left = config.servers.filter((server) => isThisGateway(server, config.file, config.baseDir));
  if (left.length === 0) return { config, left: [] };
  return {
    config: { ...config, servers: config.servers.filter((server) => !left.includes(server)) },
    left: left.map((server) => server.name),
  };
}
