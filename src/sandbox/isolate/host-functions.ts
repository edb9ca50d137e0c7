import ivm from "isolated-vm";
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
  /** Workspace and skill operations. */
  op: ivm.Reference<(name: unknown, argsJson: unknown) => Promise<HostReply>>;
  /** Bytes of results sent into the isolate so far. */
  bytesIn(): number;
  release(): void;
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
    op: opReference,
    bytesIn: host.bytesIn,
    release() {
      callReference.release();
      searchReference?.release();
      opReference.release();
    },
  };
}
