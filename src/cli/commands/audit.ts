import { defineCommand } from "citty";
import { loadConfig } from "../../config/load.ts";
import { openSharedStore } from "../../store/open-shared-store.ts";
import type { AuditRecord } from "../../store/types.ts";
import { CliError } from "../cli-error.ts";
import { COMMAND_META } from "./meta.ts";

export const auditCommand = defineCommand({
  meta: COMMAND_META.audit,
  args: {
    config: {
      type: "string",
      description: "Config file (default: ./.mcp.json, else ./toolscript.config.json)",
      valueHint: "FILE",
    },
    session: { type: "string", description: "Only this session" },
    client: {
      type: "string",
      description: "Only this HTTP client (its name in toolscript.server.http.clients)",
    },
    since: {
      type: "string",
      description: "Only records since this time (ISO date/time, or e.g. 15m, 2h, 7d)",
    },
    replica: {
      type: "string",
      description: "Only records written by this replica (TOOLSCRIPT_REPLICA, else host:pid)",
      valueHint: "ID",
    },
    denied: { type: "boolean", description: "Only policy refusals" },
    anomalies: {
      type: "boolean",
      description: "Only anomaly alerts (time, session, kind, response taken, why)",
    },
    limit: { type: "string", description: "At most this many records (default 100)", valueHint: "N" },
    json: { type: "boolean", description: "One JSON object per line" },
  },
  async run({ args }) {
    const config = await loadConfig({ path: args.config, cwd: process.cwd(), env: process.env });
    const limit = args.limit === undefined ? undefined : Number(args.limit);
    if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
      throw new CliError(`--limit expects a positive integer, got "${args.limit}"`);
    }
    const since = args.since === undefined ? undefined : parseSince(args.since);
    // SQLite in storage.dir, or the PostgreSQL store every replica writes to (storage.url).
    const store = await openSharedStore(config.settings.storage, {
      warn: (message) => process.stderr.write(`warning: ${message}\n`),
    });
    try {
      const records = await store.audit.list({
        session: args.session,
        client: args.client,
        replica: args.replica,
        since,
        denied: args.denied,
        kind: args.anomalies ? "anomaly" : undefined,
        limit,
      });
      const format = args.anomalies ? formatAnomaly : formatRecord;
      for (const record of records)
        process.stdout.write(`${args.json ? JSON.stringify(record) : format(record)}\n`);
      process.stderr.write(`${records.length} records from ${store.location}\n`);
    } finally {
      await store.close();
    }
  },
});

/** `15m`, `2h`, `7d` before now, or an absolute date/time. */
export function parseSince(text: string, now = Date.now()): number {
  const relative = /^(\d+)\s*([smhd])$/.exec(text.trim());
  if (relative) {
    const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[relative[2] as "s" | "m" | "h" | "d"];
    return now - Number(relative[1]) * unit;
  }
  const time = Date.parse(text);
  if (Number.isNaN(time))
    throw new CliError(`--since expects a date/time or a duration like 15m, 2h, 7d; got "${text}"`);
  return time;
}

/** ` (1,234 in, 56 out)` from a model call's detail. */
function tokensOf(detail: Record<string, unknown> | null | undefined): string {
  const input = detail?.inputTokens;
  const output = detail?.outputTokens;
  if (typeof input !== "number" || typeof output !== "number") return "";
  return ` (${input.toLocaleString("en-US")} in, ${output.toLocaleString("en-US")} out)`;
}

/** The session as `client:session` when an HTTP client ran it. */
function whoOf(record: AuditRecord): string {
  return record.client ? `${record.client}:${record.session ?? "-"}` : (record.session ?? "-");
}

/** `  replica=<id>` when the record names the replica that wrote it. */
function replicaOf(record: AuditRecord): string {
  return record.replica ? `  replica=${record.replica}` : "";
}

/** An anomaly alert: time, session, kind, the response taken, why. */
function formatAnomaly(record: AuditRecord): string {
  return `${new Date(record.time).toISOString()}  ${whoOf(record)}  ${record.tool}  response=${record.outcome}  ${whyOf(record)}${replicaOf(record)}`;
}

function whyOf(record: AuditRecord): string {
  return typeof record.detail?.why === "string" ? record.detail.why : "";
}

function formatRecord(record: AuditRecord): string {
  const when = new Date(record.time).toISOString();
  if (record.kind === "anomaly")
    return `${when}  ${whoOf(record)}  anomaly ${record.tool}  response=${record.outcome}  ${whyOf(record)}${replicaOf(record)}`;
  const what =
    record.kind === "execution"
      ? `execution (${record.tool})`
      : record.kind === "model_call"
        ? `model ${record.server}/${record.tool}${tokensOf(record.detail)}`
        : `${record.server}/${record.tool}`;
  const policy = record.policy && record.policy !== "allow" ? ` policy=${record.policy}` : "";
  return `${when}  ${whoOf(record)}  ${what}  ${record.outcome}  ${record.durationMs} ms${policy}${replicaOf(record)}`;
}
