/**
 * Waits for `promise` (its rejection ignored) at most `ms`. For ending
 * connections: an end says goodbye and waits for the socket to close, which
 * over a network gone silent never happens.
 */
export async function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([promise.catch(() => {}), timeout]);
  clearTimeout(timer);
}
