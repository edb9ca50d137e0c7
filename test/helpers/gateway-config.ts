import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { EVERYTHING_JS, FILESYSTEM_JS, SCRIPTED_JS } from "./servers.ts";

/** A secret in the scripted server's config env: it must never appear in an answer. */
export const CANARY_SECRET = "canary-secret-4242";

/** Writes a toolscript.config.json with everything, filesystem (on `dataDir`) and scripted servers. */
export function writeGatewayConfig(
  dir: string,
  dataDir: string,
  toolscript: Record<string, unknown> = {},
): string {
  const file = join(dir, "toolscript.config.json");
  const config = {
    mcpServers: {
      everything: { command: process.execPath, args: [EVERYTHING_JS, "stdio"] },
      filesystem: { command: process.execPath, args: [FILESYSTEM_JS, dataDir] },
      scripted: { command: process.execPath, args: [SCRIPTED_JS], env: { SCRIPTED_SECRET: CANARY_SECRET } },
    },
    toolscript: { sandbox: { timeoutMs: 3000, memoryMb: 64 }, ...toolscript },
  };
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}
