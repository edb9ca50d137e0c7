/**
 * The one run this sandbox serves (each isolate or Deno process serves exactly
 * one), set by `start` (main.ts). Everything the host hands in stays here, in
 * the prelude's closure; agent code only ever sees wrappers that move JSON
 * strings.
 */
import type { RandomSource } from "../globals/crypto.ts";
import type { SandboxErrorClass } from "../globals/errors.ts";
import type { HostReply } from "../host-calls.ts";
import { create, MapClass } from "./intrinsics.ts";

/**
 * A host function the prelude calls with `apply(undefined, args, options)`:
 * an isolated-vm Reference in the isolate tier, a JSON-lines request in the
 * process tier (process/runner-source.ts).
 */
export interface HostReference {
  apply(self: undefined, args: unknown[], options?: unknown): Promise<HostReply>;
}

/** A skill of this run: its module, its loading, and the names it exports only as types. */
export interface SkillEntry {
  module: { exports?: unknown };
  ready: Promise<unknown> | undefined;
  typeExports: unknown[];
}

export interface RunState {
  call: HostReference | undefined;
  search: HostReference | undefined;
  op: HostReference | undefined;
  log: ((level: string, message: string) => void) | undefined;
  random: RandomSource | undefined;
  /** Characters of console output left; below zero once the log budget is spent. */
  logCharsLeft: number;
  /** Skills imported by this run: name -> entry. */
  skillModules: Map<string, SkillEntry>;
}

export const run: RunState = {
  call: undefined,
  search: undefined,
  op: undefined,
  log: undefined,
  random: undefined,
  logCharsLeft: 0,
  skillModules: new MapClass(),
};

/** The sandbox's error classes by name, to rebuild host failures as (filled by main.ts). */
export const hostErrors: Record<string, SandboxErrorClass> = create(null);
