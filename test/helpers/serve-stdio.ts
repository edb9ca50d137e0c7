import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliArgs, tempDir } from "./servers.ts";

/**
 * A folder holding a `toolscript.config.json` (its store inside the folder) and
 * the stdio parameters that run `toolscript serve` there: what the SDK 1.x and
 * 2.x stdio client transports take.
 */
export function serveStdioFolder(
  prefix: string,
  config: { mcpServers: Record<string, unknown>; toolscript?: Record<string, unknown> },
) {
  const dir = tempDir(prefix);
  writeFileSync(
    join(dir.path, "toolscript.config.json"),
    JSON.stringify({
      mcpServers: config.mcpServers,
      toolscript: { ...config.toolscript, storage: { dir: join(dir.path, "data") } },
    }),
  );
  const params = () => ({
    command: process.execPath,
    args: cliArgs("serve"),
    cwd: dir.path,
    stderr: "ignore" as const,
    env: { ...(process.env as Record<string, string>), NO_COLOR: "1" },
  });
  return { dir, params };
}
