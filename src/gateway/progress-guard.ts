import type { CallProgressListener } from "../bridge/progress.ts";

/** Longest upstream progress message passed on: progress is a status line, not a channel. */
export const MAX_PROGRESS_MESSAGE_CHARS = 200;

/**
 * A server's progress message goes to the client outside the program's answer,
 * so it gets what every answer gets: configured secrets redacted and, with
 * `privacy.pii`, personal data replaced by the session's tokens. Cut first, so
 * a chatty server's long messages cost little.
 */
export function guardProgress(
  listener: CallProgressListener,
  options: { redact: (text: string) => string; tokenize?: ((text: string) => string) | undefined },
): CallProgressListener {
  return (event) => {
    if (event.kind !== "upstream" || event.progress.message === undefined) return listener(event);
    const cut = event.progress.message.slice(0, MAX_PROGRESS_MESSAGE_CHARS);
    const redacted = options.redact(cut);
    const message = options.tokenize ? options.tokenize(redacted) : redacted;
    listener({ ...event, progress: { ...event.progress, message } });
  };
}
