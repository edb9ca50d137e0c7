// Per-call time of one tool, called in several ways, measured in interleaved rounds
// so every side sees the same noise (bench/execute.ts, bench/peers.ts).
import { percentile, progress } from "./table.ts";

/** Calls per round on each side. */
export const CALLS = 200;
/** The first round warms every side up and is not counted. */
export const ROUNDS = 8;

/** One way to call the tool: `calls` makes CALLS of them; `empty`, when a sandbox runs them, an execution making none. */
export interface Side {
  label: string;
  calls(): Promise<void>;
  empty?: () => Promise<void>;
}

export interface Timing {
  /** (the calls - an empty execution) / CALLS, per counted round. */
  perCall: number[];
  empty: number[];
}

/** Every side in turn, round after round. */
export async function interleaved(sides: readonly Side[], name: string): Promise<Timing[]> {
  const timings: Timing[] = sides.map(() => ({ perCall: [], empty: [] }));
  for (let round = 0; round < ROUNDS; round++) {
    progress(`${name}: round ${round + 1}/${ROUNDS}`);
    for (const [index, side] of sides.entries()) {
      const t0 = performance.now();
      await side.calls();
      const t1 = performance.now();
      await side.empty?.();
      const t2 = performance.now();
      if (round === 0) continue;
      const empty = side.empty ? t2 - t1 : 0;
      timings[index]?.perCall.push((t1 - t0 - empty) / CALLS);
      if (side.empty) timings[index]?.empty.push(empty);
    }
  }
  return timings;
}

export const median = (values: number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
