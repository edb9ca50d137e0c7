// The code-mode peers the `peers` bench compares with, from their own package in
// bench/peers/ (never the repo's package.json): installed there on first use,
// loaded from there.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { progress } from "./table.ts";

const PEERS_DIR = fileURLToPath(new URL("./peers/", import.meta.url));
const INSTALL_TIMEOUT_MS = 5 * 60_000;
const CODE_MODE = "@utcp/code-mode";
const MCP_PLUGIN = "@utcp/mcp";

/** What the bench uses of `CodeModeUtcpClient` (as its dist/index.js defines it; its README shows an options object). */
export interface CodeModeClient {
  registerManual(callTemplate: Record<string, unknown>): Promise<unknown>;
  callToolChain(
    code: string,
    timeoutMs?: number,
    memoryLimitMb?: number,
  ): Promise<{ result: unknown; logs: string[] }>;
  close(): Promise<void>;
}

export interface CodeModePeer {
  /** `@utcp/code-mode@1.2.12, isolated-vm 5.0.4`, as installed. */
  label: string;
  create(): Promise<CodeModeClient>;
}

/** `npm ci --legacy-peer-deps` in bench/peers/, its output on stderr; rejects with the reason. */
function install(): Promise<void> {
  progress(`installing the peers' package: npm ci --legacy-peer-deps in ${PEERS_DIR}`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const child = spawn(npm, ["ci", "--legacy-peer-deps", "--no-audit", "--no-fund"], {
    cwd: PEERS_DIR,
    stdio: ["ignore", process.stderr, process.stderr],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill(), INSTALL_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`npm ci --legacy-peer-deps could not start: ${error.message}`));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `npm ci --legacy-peer-deps in bench/peers/ failed (${signal ?? `exit ${code}`}; its output is above, on stderr)`,
          ),
        );
    });
  });
}

/** The UTCP code-mode client with its MCP plugin registered; installs bench/peers/ the first time. */
export async function loadCodeModePeer(): Promise<CodeModePeer> {
  const require = createRequire(join(PEERS_DIR, "package.json"));
  const packageJson = join(PEERS_DIR, "node_modules", CODE_MODE, "package.json");
  const installed = () => existsSync(packageJson);
  if (!installed()) await install();
  if (!installed()) throw new Error(`${CODE_MODE} is still missing after npm ci in bench/peers/`);
  const codeMode = (await import(pathToFileURL(require.resolve(CODE_MODE)).href)) as {
    CodeModeUtcpClient: { create(): Promise<CodeModeClient> };
  };
  // Importing the plugin registers the `mcp` call template type with the UTCP client.
  await import(pathToFileURL(require.resolve(MCP_PLUGIN)).href);
  const version = (path: string) => (JSON.parse(readFileSync(path, "utf8")) as { version: string }).version;
  // Its sandbox's isolated-vm: the repo's own (5.x) on Node 20, as the peer range ^6 was not installed.
  const isolatedVm = createRequire(packageJson).resolve("isolated-vm/package.json");
  return {
    label: `${CODE_MODE}@${version(packageJson)}, isolated-vm ${version(isolatedVm)}`,
    create: () => codeMode.CodeModeUtcpClient.create(),
  };
}
