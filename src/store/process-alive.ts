import { readFileSync } from "node:fs";

/**
 * Whether the process `pid` still runs (on this machine, in this pid
 * namespace). A process of another user counts as running; a zombie (ended,
 * not yet reaped by its parent) does not. When unsure, it counts as running:
 * callers use this to leave alone what a live process may still write.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    // Linux: field 3 of /proc/<pid>/stat, after the parenthesised command name, is the state.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat[stat.lastIndexOf(")") + 2] !== "Z";
  } catch {
    return true;
  }
}
