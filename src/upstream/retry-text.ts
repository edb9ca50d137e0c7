/** "retrying in 30 s" for a scheduled restart (epoch ms or ISO time), "trying again now" while one runs. */
export function describeRetry(nextRetryAt: number | string | undefined, now = Date.now()): string {
  if (nextRetryAt === undefined) return "trying again now";
  const at = typeof nextRetryAt === "number" ? nextRetryAt : Date.parse(nextRetryAt);
  return `retrying in ${Math.max(1, Math.ceil((at - now) / 1000))} s`;
}
