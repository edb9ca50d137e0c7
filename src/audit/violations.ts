export type ViolationKind = "policy" | "limit" | "timeout" | "memory" | "escape";

/**
 * Security violations per session: policy refusals, limit hits and escape
 * attempts that hit a wall. Crossing `alertAfter` calls `onAlert` once.
 */
export class ViolationCounter {
  readonly #counts = new Map<string, Record<ViolationKind, number>>();
  readonly #alertAfter: number;
  readonly #onAlert: (session: string, counts: Record<ViolationKind, number>) => void;
  readonly #alerted = new Set<string>();

  constructor(alertAfter: number, onAlert: (session: string, counts: Record<ViolationKind, number>) => void) {
    this.#alertAfter = alertAfter;
    this.#onAlert = onAlert;
  }

  add(session: string, kind: ViolationKind): void {
    let counts = this.#counts.get(session);
    if (!counts) {
      counts = { policy: 0, limit: 0, timeout: 0, memory: 0, escape: 0 };
      this.#counts.set(session, counts);
    }
    counts[kind]++;
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
    if (total >= this.#alertAfter && !this.#alerted.has(session)) {
      this.#alerted.add(session);
      this.#onAlert(session, { ...counts });
    }
  }

  get(session: string): Record<ViolationKind, number> {
    return { ...(this.#counts.get(session) ?? { policy: 0, limit: 0, timeout: 0, memory: 0, escape: 0 }) };
  }
}

/** Messages V8 gives when code reaches for what the sandbox does not have. */
const ESCAPE_PATTERNS = [
  /\b(process|require|module|Deno|Bun|fetch|XMLHttpRequest|WebSocket|setTimeout|SharedArrayBuffer|WebAssembly) is not defined\b/,
  /Cannot find module|Cannot import|dynamic import|import\(\) is disallowed|not supported in this context/i,
  /Requires (read|write|net|env|run|ffi|sys) access/,
];

/** True when an error message shows code reaching for host authority. */
export function looksLikeEscapeAttempt(message: string): boolean {
  return ESCAPE_PATTERNS.some((pattern) => pattern.test(message));
}
