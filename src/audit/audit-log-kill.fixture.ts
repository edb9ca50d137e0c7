// Test fixture for audit-log.test.ts, run as a child process: journals three
// calls, completes two, and is SIGKILLed by its own flush right after the
// batch committed, before the journal is emptied (the journal outlives its flush).
// Usage: node --import tsx audit-log-kill.fixture.ts <dir>
import { createRequire, syncBuiltinESMExports } from "node:module";
import { silentLogger } from "../gateway/logger.ts";
import { openSqliteSharedStore } from "../store/sqlite-shared-store.ts";
import type { AuditEntry } from "../store/types.ts";
import { AuditLog, STARTED_OUTCOME } from "./audit-log.ts";

const [dir] = process.argv.slice(2);
if (!dir) throw new Error("usage: audit-log-kill.fixture.ts <dir>");

const log = new AuditLog({ store: openSqliteSharedStore({ dir }).audit, level: "off", logger: silentLogger });
const call = (tool: string, outcome = STARTED_OUTCOME): AuditEntry => ({
  kind: "tool_call",
  time: 1_000,
  session: "killed",
  server: "fs",
  tool,
  argsDigest: "d",
  argsBytes: 2,
  outcome,
  durationMs: 0,
});
const read = log.begin(call("read"));
const write = log.begin(call("write"));
log.begin(call("list"));
log.complete(read, call("read", "ok"), false);
log.complete(write, call("write", "ToolError"), false);

// Emptying the journal is the first thing after the commit: die there instead.
const fs = createRequire(import.meta.url)("node:fs") as typeof import("node:fs");
fs.ftruncateSync = () => process.kill(process.pid, "SIGKILL");
syncBuiltinESMExports();
await log.flush();
throw new Error("the flush should have killed this process");
