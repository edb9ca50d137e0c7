import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseConfig } from "../config/parse.ts";
import type { Config } from "../config/schema.ts";

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const DEMO_DIR = join(PACKAGE_ROOT, "examples/demo");

/** The reference servers the demo starts, with the script each package runs. */
const DEMO_SERVERS = {
  filesystem: { pkg: "@modelcontextprotocol/server-filesystem", script: "dist/index.js" },
  memory: { pkg: "@modelcontextprotocol/server-memory", script: "dist/index.js" },
  everything: { pkg: "@modelcontextprotocol/server-everything", script: "dist/index.js" },
} as const;

export interface DemoSetup {
  config: Config;
  dataDir: string;
  programFile: string;
  cleanup(): void;
}

/**
 * The bundled example: server-filesystem on the demo's data folder,
 * server-memory with a throw-away graph file, and server-everything.
 * Installed packages are started with this Node; missing ones through npx.
 */
export function demoSetup(): DemoSetup {
  const scratch = mkdtempSync(join(tmpdir(), "toolscript-demo-"));
  const dataDir = join(DEMO_DIR, "data");
  const command = (name: keyof typeof DEMO_SERVERS, args: string[]) => {
    const { pkg, script } = DEMO_SERVERS[name];
    const local = findPackage(pkg);
    return local
      ? { command: process.execPath, args: [join(local, script), ...args] }
      : { command: "npx", args: ["-y", pkg, ...args] };
  };
  const config = parseConfig(
    {
      mcpServers: {
        filesystem: command("filesystem", [dataDir]),
        memory: { ...command("memory", []), env: { MEMORY_FILE_PATH: join(scratch, "memory.jsonl") } },
        everything: command("everything", ["stdio"]),
      },
      toolscript: { storage: { dir: join(scratch, "store") } },
    },
    { baseDir: scratch, env: {} },
  );
  return {
    config,
    dataDir,
    programFile: join(DEMO_DIR, "program.ts"),
    cleanup: () => rmSync(scratch, { recursive: true, force: true }),
  };
}

function findPackage(name: string): string | undefined {
  for (let dir = PACKAGE_ROOT; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
