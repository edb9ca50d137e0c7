import type { ExecutionError } from "../../sandbox/types.ts";
import { anomalySessionKey, liftedWhen, type SessionResponses } from "./session-responses.ts";

/** Why a blocked session's execution is refused before it runs (`anomaly.blocked`); undefined when it is not blocked. */
export function anomalyRefusal(
  responses: SessionResponses,
  session: string,
  client: string | null,
): ExecutionError | undefined {
  const blocked = responses.blocked(anomalySessionKey(session, client));
  if (!blocked) return undefined;
  return {
    kind: "policy",
    name: "AnomalyBlocked",
    code: "anomaly.blocked",
    message: `refused (anomaly.blocked): session "${session}" is blocked after anomaly "${blocked.kind}" (${blocked.why}); ${liftedWhen(blocked)}`,
  };
}
