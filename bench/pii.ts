// PII detection speed on adversarial and typical text, and how long a 20 MB
// scan holds the event loop. Figures: best of ROUNDS runs (the machine is shared).

import { createPiiDetector } from "../src/privacy/detect.ts";
import { PiiVault } from "../src/privacy/vault.ts";
import { ms, printTable, progress } from "./table.ts";

const MB = 1_000_000;
const SIZE = 20 * MB;
const ROUNDS = 3;

/** Deterministic pseudo-random digits, so runs compare. */
function digitSource(seed = 7): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % 10;
  };
}

function fill(size: number, piece: (i: number) => string): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const part = piece(i);
    parts.push(part);
    length += part.length;
  }
  return parts.join("").slice(0, size);
}

function randomGroups(size: number, digits: number, separator: string): string {
  const next = digitSource();
  return fill(size, () => {
    let group = "";
    for (let d = 0; d < digits; d++) group += String(next());
    return group + separator;
  });
}

const PROSE =
  "The quarterly review covered 14 open items. Shipping delays in region 3 were traced to a vendor " +
  "change on 2026-03-02; the fix landed in v2.4.1 and costs fell 12.5% (from $41,200 to $36,050). ";

function toolResultJson(size: number): string {
  const rows: unknown[] = [];
  let length = 2;
  for (let i = 0; length < size; i++) {
    const row = {
      id: `c8f1${i.toString(16).padStart(8, "0")}-4e2a-9b1c-${(i * 7919).toString(16).padStart(12, "0")}`,
      name: `Customer ${i}`,
      created: `2026-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}T10:20:30.123Z`,
      url: `https://api.example.com/v2/customers/${i}?page=${i % 50}`,
      orders: i % 97,
      total: (i * 13.37) % 10_000,
      status: i % 3 ? "active" : "archived",
      note: PROSE.slice(0, 60 + (i % 100)),
      ...(i % 50 === 0 && { email: `customer${i}@example.com` }),
    };
    const text = JSON.stringify(row);
    rows.push(row);
    length += text.length + 1;
  }
  return JSON.stringify(rows);
}

const INPUTS: ReadonlyArray<[label: string, make: () => string]> = [
  ['digit groups "12345 "', () => fill(SIZE, () => "12345 ")],
  ["random 5-digit groups", () => randomGroups(SIZE, 5, " ")],
  ['separators "1-2-3-4 "', () => fill(SIZE, () => "1-2-3-4 ")],
  ["random 3-3-4 dashed", () => randomGroups(SIZE, 3, "-")],
  ["one digit run", () => "1".repeat(SIZE)],
  ['dotted digits "1."', () => fill(SIZE, () => "1.")],
  ['many dots "a."', () => fill(SIZE, () => "a.")],
  ['many "@"', () => "@".repeat(SIZE)],
  ['many "a@"', () => fill(SIZE, () => "a@")],
  ["e-mail-heavy (distinct)", () => fill(SIZE, (i) => `first.last${i}@example.com, `)],
  ['e-mail-heavy "a@b.co "', () => fill(SIZE, () => "a@b.co ")],
  ["phone-heavy (one number)", () => fill(SIZE, () => "call +1 415-555-2671; ")],
  ["typical JSON (tool result)", () => toolResultJson(SIZE)],
  ["prose", () => fill(SIZE, () => PROSE)],
];

function best<T>(run: () => T): { ms: number; value: T } {
  let fastest = Number.POSITIVE_INFINITY;
  let value: T | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    value = run();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return { ms: fastest, value: value as T };
}

/** The longest gap between two turns of the event loop while `work` runs. */
async function maxStall(work: () => Promise<unknown>): Promise<{ stallMs: number; totalMs: number }> {
  let stallMs = 0;
  let last = performance.now();
  let running = true;
  const tick = () => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const started = performance.now();
  await work();
  const totalMs = performance.now() - started;
  running = false;
  return { stallMs, totalMs };
}

/** A plain loop over the characters: the machine's own speed, to read the rows against (a shared machine varies). */
function reference(text: string): number {
  let spaces = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 32) spaces++;
  return spaces;
}

export async function benchPii(): Promise<void> {
  const detector = createPiiDetector();
  const rows: string[][] = [];
  const plain = fill(SIZE, () => "12345 ");
  const loop = best(() => reference(plain));
  rows.push([
    "(reference: plain charCodeAt loop)",
    "20.0",
    (SIZE / MB / (loop.ms / 1000)).toFixed(0),
    "",
    "",
  ]);
  for (const [label, make] of INPUTS) {
    progress(`pii: ${label}`);
    const text = make();
    const detect = best(() => detector.scan(text).length);
    const vault = best(() => new PiiVault(detector).tokenize(text).length);
    rows.push([
      label,
      (text.length / MB).toFixed(1),
      (text.length / MB / (detect.ms / 1000)).toFixed(0),
      (text.length / MB / (vault.ms / 1000)).toFixed(0),
      String(detect.value),
    ]);
  }
  printTable(
    `PII detection (best of ${ROUNDS}; MB = 10^6 characters; detect = detector.scan, what the vault runs)`,
    ["input", "MB", "detect MB/s", "tokenize MB/s", "matches"],
    rows,
  );

  const stalls: string[][] = [];
  const stallInputs = INPUTS.filter(([label]) =>
    /^(digit groups|random 5|e-mail-heavy \(|typical)/.test(label),
  );
  for (const [label, make] of stallInputs) {
    progress(`pii: event-loop stall, ${label}`);
    const text = make();
    const vault = new PiiVault(detector);
    const { stallMs, totalMs } = await maxStall(() => vault.tokenizeAsync(text));
    const value = label.startsWith("typical") ? JSON.parse(text) : undefined;
    const valueStall = value
      ? await maxStall(() => new PiiVault(detector).tokenizeValueAsync(value))
      : undefined;
    stalls.push([
      label,
      (text.length / MB).toFixed(1),
      ms(totalMs),
      ms(stallMs),
      valueStall ? `${ms(valueStall.totalMs)} / ${ms(valueStall.stallMs)}` : "",
    ]);
  }
  printTable(
    "Event loop during a 20 MB tokenizeAsync (chunks of 128K characters)",
    ["input", "MB", "total ms", "max stall ms", "tokenizeValueAsync (parsed) total / max stall ms"],
    stalls,
  );
}
