import { describeRetry } from "../upstream/retry-text.ts";
import type { UpstreamStatus } from "../upstream/types.ts";

const MARK: Record<UpstreamStatus["state"], string> = {
  ready: "ok",
  connecting: "..",
  needs_login: "??",
  restarting: "!!",
  failed: "XX",
  disabled: "--",
  closed: "--",
};

/** One line per server, plus the error and stderr tail of those that are not ready. */
export function formatStatuses(statuses: readonly UpstreamStatus[]): string {
  const width = Math.max(0, ...statuses.map((status) => status.server.length));
  const lines: string[] = [];
  for (const status of statuses) {
    const transport = status.transport ?? "";
    const detail =
      status.state === "ready"
        ? `${status.toolCount} tools${status.restarts ? `, ${status.restarts} restarts` : ""}`
        : status.state === "needs_login"
          ? `needs login: run \`${status.login?.command ?? `toolscript auth login ${status.server}`}\`${status.login?.url ? ` or open ${status.login.url}` : ""}`
          : `${status.state}${status.error ? `: ${status.error}` : ""}${retryNote(status)}`;
    lines.push(`[${MARK[status.state]}] ${status.server.padEnd(width)}  ${transport.padEnd(15)} ${detail}`);
    if (status.state !== "ready" && status.stderrTail) {
      for (const line of status.stderrTail.split("\n").slice(-5)) lines.push(`       | ${line}`);
    }
  }
  return lines.join("\n");
}

function retryNote(status: UpstreamStatus): string {
  if (status.state !== "restarting" && status.state !== "failed") return "";
  return `; ${describeRetry(status.nextRetryAt)}`;
}
