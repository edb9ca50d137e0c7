import { loadConfig } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import { Gateway } from "../gateway/gateway.ts";
import { stderrLogger } from "../gateway/logger.ts";
import { formatStatuses } from "./status.ts";

export interface OpenGatewayOptions {
  configPath?: string | undefined;
  /** Print each server's status on stderr once connected. */
  showStatus?: boolean;
  /** Log status changes (restarts, failures) on stderr while running. */
  logChanges?: boolean;
  /**
   * Wait for every server's first attempt (one-shot commands, whose output must be complete).
   * `serve` does not: its client gets answers at once and late servers join the catalog.
   */
  waitForServers?: boolean;
  config?: Config;
}

/** Loads the config, connects every upstream, and shows how each one did on stderr. */
export async function openGateway(options: OpenGatewayOptions): Promise<Gateway> {
  const config =
    options.config ?? (await loadConfig({ path: options.configPath, cwd: process.cwd(), env: process.env }));
  const gateway = new Gateway({ config, ...(options.logChanges && { logger: stderrLogger() }) });
  if (config.servers.length === 0) {
    process.stderr.write(
      "toolscript: no MCP servers configured (create toolscript.config.json or pass --config FILE)\n",
    );
  }
  let statuses: Awaited<ReturnType<Gateway["start"]>>;
  try {
    statuses = await gateway.start({ waitForServers: options.waitForServers ?? true });
  } catch (error) {
    await gateway.close();
    throw error;
  }
  // Without waiting every server is still "connecting": status lines follow as each one settles.
  if (options.showStatus && options.waitForServers !== false && statuses.length > 0)
    process.stderr.write(`${formatStatuses(statuses)}\n`);
  return gateway;
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
