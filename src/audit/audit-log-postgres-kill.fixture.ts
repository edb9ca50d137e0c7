// Test fixture for audit-log-postgres.test.ts, run as a child process: begins a
// tool call on a PostgreSQL store, says "acknowledged" once `begin` let the call
// go, then waits to be SIGKILLed with the call still running.
// Usage: node --import tsx audit-log-postgres-kill.fixture.ts <url> <replica>
import { silentLogger } from "../gateway/logger.ts";
import { openPostgresStore } from "../store/postgres/postgres-store.ts";
import { AuditLog, STARTED_OUTCOME } from "./audit-log.ts";

const [url, replica] = process.argv.slice(2);
if (!url || !replica) throw new Error("usage: audit-log-postgres-kill.fixture.ts <url> <replica>");

const store = await openPostgresStore({ url });
const log = new AuditLog({ store: store.audit, level: "off", logger: silentLogger, replica });
const ticket = log.begin({
  kind: "tool_call",
  time: Date.now(),
  session: "killed",
  server: "fs",
  tool: "write",
  argsDigest: "d",
  argsBytes: 2,
  outcome: STARTED_OUTCOME,
  durationMs: 0,
});
await ticket.written;
process.stdout.write("acknowledged\n");
// The call "runs" until the parent kills this process.
setInterval(() => {}, 60_000);
