import { hostname } from "node:os";

/** Names this gateway process in the audit records it writes, when several share one store. */
export const REPLICA_ENV = "TOOLSCRIPT_REPLICA";

/** `TOOLSCRIPT_REPLICA` when set, else `<hostname>:<pid>`: unique among the replicas on one store. */
export function replicaId(env: NodeJS.ProcessEnv = process.env): string {
  const named = env[REPLICA_ENV]?.trim();
  return named ? named : `${hostname()}:${process.pid}`;
}
