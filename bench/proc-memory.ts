// Memory of a process and of the processes below it, read from /proc (Linux).
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessMemory {
  /** VmRSS: resident now, MiB. */
  rssMb: number;
  /** VmHWM: the most it was resident, MiB. */
  peakMb: number;
}

function field(status: string, name: string): number {
  return Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
}

/** A `kB` field of /proc/<pid>/status in MiB. */
function mebibytes(status: string, name: string): number {
  return field(status, name) / 1024;
}

export function processMemory(pid: number): ProcessMemory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return { rssMb: mebibytes(status, "VmRSS"), peakMb: mebibytes(status, "VmHWM") };
}

export interface ProcessEntry {
  pid: number;
  /** The command line, arguments joined by spaces. */
  command: string;
  rssMb: number;
}

/** Every process below `root` (children, grandchildren, ...). */
export function descendants(root: number): ProcessEntry[] {
  const parents = new Map<number, number>();
  const entries = new Map<number, ProcessEntry>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
      parents.set(pid, field(status, "PPid"));
      entries.set(pid, { pid, command, rssMb: mebibytes(status, "VmRSS") || 0 });
    } catch {
      // Gone while we looked.
    }
  }
  const below = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at))
      if (at === root) return true;
    return false;
  };
  return [...entries.values()].filter((entry) => below(entry.pid));
}

/** Waits until RSS moves less than `toleranceMb` over `windowMs` (GC and pools done), at most `maxMs`. */
export async function settled(
  pid: number,
  windowMs = 2_000,
  toleranceMb = 1,
  maxMs = 20_000,
): Promise<ProcessMemory> {
  const started = Date.now();
  let last = processMemory(pid);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const now = processMemory(pid);
    if (Math.abs(now.rssMb - last.rssMb) < toleranceMb || Date.now() - started > maxMs) return now;
    last = now;
  }
}
