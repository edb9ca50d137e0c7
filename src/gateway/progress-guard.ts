import type { CallProgress, CallProgressListener } from "../bridge/progress.ts";

/** Longest upstream progress message passed on: progress is a status line, not a channel. */
export const MAX_PROGRESS_MESSAGE_CHARS = 200;

/**
 * A server's progress message goes to the client outside the program's answer,
 * so it gets what every answer gets: configured secrets redacted and, with
 * `privacy.pii`, personal data replaced by the session's tokens. Cut first, so
 * a chatty server's long messages cost little. Tokenizing may wait on the
 * store (a new token is committed before it is shown): events then pass on in
 * the order they came, each after the ones before it.
 */
export function guardProgress(
  listener: CallProgressListener,
  options: {
    redact: (text: string) => string;
    tokenize?: ((text: string) => Promise<string>) | undefined;
    /** Told when tokenizing a message failed (the event is then dropped: its text is not safe to show). */
    onError?: ((error: unknown) => void) | undefined;
  },
): CallProgressListener {
  const tokenize = options.tokenize;
  if (!tokenize) {
    return (event) => {
      if (event.kind !== "upstream" || event.progress.message === undefined) return listener(event);
      const message = options.redact(event.progress.message.slice(0, MAX_PROGRESS_MESSAGE_CHARS));
      listener({ ...event, progress: { ...event.progress, message } });
    };
  }
  let previous: Promise<void> = Promise.resolve();
  return (event) => {
    // Settles to undefined, never rejects, when tokenizing failed: handled at once, not when its turn comes.
    const guarded: Promise<CallProgress | undefined> =
      event.kind !== "upstream" || event.progress.message === undefined
        ? Promise.resolve(event)
        : tokenize(options.redact(event.progress.message.slice(0, MAX_PROGRESS_MESSAGE_CHARS))).then(
            (message) => ({ ...event, progress: { ...event.progress, message } }),
            (error: unknown) => {
              options.onError?.(error);
              return undefined;
            },
          );
    previous = previous
      .then(() => guarded)
      .then((ready) => {
        if (ready) listener(ready);
      })
      .catch(() => {});
  };
}
