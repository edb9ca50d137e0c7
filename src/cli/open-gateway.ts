import { relative } from "node:path";
import { loadConfig } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import type { Gateway } from "../gateway/gateway.ts";
import { stderrLogger } from "../gateway/logger.ts";
import type { ClientRequestHooks, UpstreamStatus } from "../upstream/types.ts";
import { CliError } from "./cli-error.ts";
import { withoutThisGateway } from "./self-reference.ts";
import { formatStatuses } from "./status.ts";

export interface OpenGatewayOptions {
  configPath?: string | undefined;
  /** Print each server's status on stderr once connected. */
  showStatus?: boolean;
  /**
   * Log status changes (ready, restarts, failures) on stderr while running. These
   * lines are then the only status lines: the summary after start would repeat them.
   */
  logChanges?: boolean;
  /**
   * Wait for every server's first attempt (one-shot commands, whose output must be complete).
   * `serve` does not: its client gets answers at once and late servers join the catalog.
   */
  waitForServers?: boolean;
  /** Start the sandbox (false: the command runs no program, e.g. `tools`, `skills`). Default true. */
  sandbox?: boolean;
  /** Refuse to start without any server configured (`run`, `tools list`: nothing to do). */
  requireServers?: boolean;
  config?: Config;
  /** How this command answers sampling, elicitation and roots requests from upstream servers. */
  clientRequests?: ClientRequestHooks;
}

const NO_SERVERS =
  "no MCP servers configured (create .mcp.json or toolscript.config.json, or pass --config FILE)";

/** Loads the config, connects every upstream, and shows how each one did on stderr. */
export async function openGateway(options: OpenGatewayOptions): Promise<Gateway> {
  const loaded =
    options.config ?? (await loadConfig({ path: options.configPath, cwd: process.cwd(), env: process.env }));
  const where = loaded.file ? relative(process.cwd(), loaded.file) || loaded.file : "the config";
  if (options.configPath === undefined && loaded.source === "file") {
    // Found, not named: say which file, since two names are looked up.
    process.stderr.write(`toolscript: using ${where}\n`);
  }
  const { config, left } = withoutThisGateway(loaded);
  for (const name of left) {
    process.stderr.write(
      `toolscript: leaving out server "${name}" of ${where}: it is this gateway and would start itself\n`,
    );
  }
  const enabled = config.servers.filter((server) => !server.disabled);
  if (enabled.length === 0) {
    const why = config.servers.length === 0 ? NO_SERVERS : "every configured MCP server is disabled";
    if (options.requireServers) throw new CliError(why);
    process.stderr.write(`toolscript: ${why}\n`);
  }
  // Loaded when a gateway opens: a command's `--help` needs none of it.
  const { Gateway } = await import("../gateway/gateway.ts");
  const gateway = new Gateway({
    config,
    ...(options.logChanges && { logger: stderrLogger() }),
    ...(options.clientRequests && { clientRequests: options.clientRequests }),
    // A command run by a person may ask them to approve an OAuth login in the browser.
    interactiveLogin: true,
  });
  let statuses: Awaited<ReturnType<Gateway["start"]>>;
  try {
    statuses = await gateway.start({
      waitForServers: options.waitForServers ?? true,
      sandbox: options.sandbox ?? true,
    });
  } catch (error) {
    await gateway.close();
    throw error;
  }
  // With logChanges the logger has said how each server did; only the ones it never reports are left.
  const shown = options.logChanges ? statuses.filter((status) => status.state === "disabled") : statuses;
  if (options.showStatus && shown.length > 0) process.stderr.write(`${formatStatuses(shown)}\n`);
  return gateway;
}

/** True when servers are configured and every one failed (or is waiting to retry): a listing would be empty for a reason. */
export function everyServerFailed(statuses: readonly UpstreamStatus[]): boolean {
  const enabled = statuses.filter((status) => status.state !== "disabled");
  return (
    enabled.length > 0 &&
    enabled.every((status) => status.state === "failed" || status.state === "restarting")
  );
}

/** Closes the gateway on SIGINT/SIGTERM so no child process is left behind. */
export function closeOnSignals(gateway: Gateway, onClosed: () => void): void {
  let closing = false;
  const handler = () => {
    if (closing) return;
    closing = true;
    void gateway.close().finally(onClosed);
  };
  process.once("SIGINT", handler);
  process.once("SIGTERM", handler);
}
