import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuditLog, STARTED_OUTCOME } from "../src/audit/audit-log.ts";
import { auditMiddleware } from "../src/audit/audit-middleware.ts";
import { ViolationCounter } from "../src/audit/violations.ts";
import type { ToolCall } from "../src/bridge/types.ts";
import type { CatalogTool } from "../src/catalog/types.ts";
import { silentLogger } from "../src/gateway/logger.ts";
import type { PolicyAction } from "../src/policy/policy.ts";
import { openSqliteSharedStore, type SqliteSharedStore } from "../src/store/sqlite-shared-store.ts";
import type { AuditEntry } from "../src/store/types.ts";
import { ms, printTable, progress } from "./table.ts";

const CALLS = 20_000;
const WARMUP_CALLS = 2_000;
/** Calls kept in flight at once in the concurrent row (a program's `Promise.all`). */
const CONCURRENCY = 16;

const TOOL: CatalogTool = {
  server: "bench",
  tool: "echo",
  serverId: "bench",
  toolId: "echo",
  path: "tools.bench.echo",
  definition: { name: "echo", inputSchema: { type: "object" } },
};
const ARGS = { query: "weather in Paris", limit: 10, fields: ["temp", "wind", "rain"] };
const RESULT = { content: [{ type: "text", text: "18 °C, light wind, no rain" }] };
const STARTED: AuditEntry = {
  kind: "tool_call",
  time: 0,
  session: "bench",
  server: "bench",
  tool: "echo",
  argsDigest: "0".repeat(64),
  argsBytes: 60,
  outcome: STARTED_OUTCOME,
  durationMs: 0,
};

/** µs of main-thread time per call, for `calls` calls run `concurrency` at a time, the flushes included. */
async function perCall(
  calls: number,
  concurrency: number,
  call: () => Promise<unknown>,
  flush: () => Promise<void>,
): Promise<number> {
  const started = performance.now();
  for (let done = 0; done < calls; done += concurrency) {
    if (concurrency === 1) await call();
    else await Promise.all(Array.from({ length: concurrency }, call));
  }
  await flush();
  return ((performance.now() - started) * 1000) / calls;
}

/**
 * What the audit costs per tool call: `begin` before the call goes out, `complete`
 * when it ends, and the batched flush, on a store in a temp directory with the
 * default durability (full). The upstream answers at once, so only the audit is measured.
 */
export async function benchAudit(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "toolscript-bench-audit-"));
  let store: SqliteSharedStore | undefined;
  try {
    store = openSqliteSharedStore({ dir });
    const log = new AuditLog({ store: store.audit, level: "off", logger: silentLogger });
    const middleware = auditMiddleware({
      log,
      violations: new ViolationCounter(Number.POSITIVE_INFINITY, () => {}),
      session: "bench",
      decisions: new WeakMap<object, PolicyAction>(),
    });
    const upstream = async (_call: ToolCall) => RESULT;
    const signal = new AbortController().signal;
    const viaMiddleware = () => middleware({ tool: TOOL, args: ARGS, signal }, upstream);
    const direct = () => upstream({ tool: TOOL, args: ARGS, signal });
    const flush = () => log.flush();
    const entry = { ...STARTED, time: Date.now() };
    const done = { ...entry, outcome: "ok", durationMs: 0.2, bytesOut: 60, policy: "allow" };
    const logOnly = async () => log.complete(log.begin(entry), done, false);

    progress(`audit: ${CALLS} calls, one at a time and ${CONCURRENCY} at a time`);
    await perCall(WARMUP_CALLS, 1, viaMiddleware, flush);
    const bare = await perCall(CALLS, 1, direct, async () => {});
    const sequential = await perCall(CALLS, 1, viaMiddleware, flush);
    const concurrent = await perCall(CALLS, CONCURRENCY, viaMiddleware, flush);
    const logAlone = await perCall(CALLS, 1, logOnly, flush);
    const recorded = (await store.audit.list({ session: "bench", limit: CALLS * 4 })).length;
    if (recorded !== WARMUP_CALLS + 3 * CALLS)
      throw new Error(`bench audit: expected ${WARMUP_CALLS + 3 * CALLS} records, found ${recorded}`);

    printTable(
      `Audit per tool call (SQLite store, durability full; ${CALLS} calls, flushes included)`,
      ["calls", "µs per call", "audit µs per call"],
      [
        ["no audit (the bare call)", ms(bare), "-"],
        ["audited, one at a time", ms(sequential), ms(sequential - bare)],
        [`audited, ${CONCURRENCY} in flight`, ms(concurrent), ms(concurrent - bare)],
        ["AuditLog begin + complete alone (no middleware)", ms(logAlone), ms(logAlone)],
      ],
    );
  } finally {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
