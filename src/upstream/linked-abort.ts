/**
 * A signal of its own that aborts when `parent` does. The SDK never removes
 * its abort listener: a per-call signal keeps a long-lived execution signal
 * from collecting one listener per call. `unlink` detaches it afterwards.
 */
export function linkedController(parent: AbortSignal | undefined): { signal: AbortSignal; unlink(): void } {
  const controller = new AbortController();
  if (!parent) return { signal: controller.signal, unlink() {} };
  const onAbort = () => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener("abort", onAbort, { once: true });
  return { signal: controller.signal, unlink: () => parent.removeEventListener("abort", onAbort) };
}
