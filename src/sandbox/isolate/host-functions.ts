import { randomFillSync } from "node:crypto";
import ivm from "isolated-vm";
import { MAX_RANDOM_BYTES } from "../shared/globals/crypto.ts";
import { createHostCalls, type HostCallsOptions, type HostReply } from "../shared/host-calls.ts";

export type { HostReply } from "../shared/host-calls.ts";

/** The same inputs as the tier-independent host calls it wraps. */
export type HostFunctionsOptions = HostCallsOptions;

/** The host functions of one run, in the form handed to the prelude's `start`. */
export interface HostFunctions {
  call: ivm.Reference<(server: unknown, tool: unknown, argsJson: unknown) => Promise<HostReply>>;
  search:
    | ivm.Reference<(query: unknown, limit: unknown, minScore: unknown) => Promise<HostReply>>
    | undefined;
  log: ivm.Callback<(level: unknown, message: unknown) => void>;
  /** Fresh random bytes for `crypto`, copied into the isolate (the isolate tier has no source of its own). */
  random: ivm.Callback<(length: unknown) => Uint8Array>;
  /** Workspace and skill operations. */
  op: ivm.Reference<(name: unknown, argsJson: unknown) => Promise<HostReply>>;
  /** Bytes of results sent into the isolate so far. */
  bytesIn(): number;
  release(): void;
}

/** `length` random bytes; the length comes from the sandbox, so it is checked. */
function randomBytes(length: unknown): Uint8Array {
  const size =
    typeof length === "number" && Number.isInteger(length) && length > 0
      ? Math.min(length, MAX_RANDOM_BYTES)
      : 0;
  return randomFillSync(new Uint8Array(size));
}

/** Builds the host side of the bridge for one run, as isolated-vm references. */
export function createHostFunctions(options: HostFunctionsOptions): HostFunctions {
  const host = createHostCalls(options);
  const callReference = new ivm.Reference(host.call);
  const searchReference = host.search === undefined ? undefined : new ivm.Reference(host.search);
  const opReference = new ivm.Reference(host.op);
  return {
    call: callReference,
    search: searchReference,
    log: new ivm.Callback(host.log),
    random: new ivm.Callback(randomBytes),
    op: opReference,
    bytesIn: host.bytesIn,
    release() {
      callReference.release();
      searchReference?.release();
      opReference.release();
    },
  };
}
