import { SessionError } from "./errors.ts";

/** Matches the `session` argument of execute_code. */
export const MAX_SESSION_ID_LENGTH = 200;

const CONTROL = /\p{Cc}/u;

/** Throws `session.bad_id` unless `id` can name a session. */
export function assertSessionId(id: unknown): asserts id is string {
  if (typeof id !== "string" || id.length === 0 || id.length > MAX_SESSION_ID_LENGTH || CONTROL.test(id)) {
    throw new SessionError(
      "session.bad_id",
      `invalid session id ${JSON.stringify(String(id)).slice(0, 80)}: use 1-${MAX_SESSION_ID_LENGTH} characters without control characters`,
      { id },
    );
  }
}
