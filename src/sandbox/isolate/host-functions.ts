import ivm from "isolated-vm";
import type { HostBridge, ToolNamespace } from "../types.ts";
import type { LogCollector } from "./log-collector.ts";

/** What a host function sends back into the isolate. It always resolves: a rejection could carry host stacks. */
export type HostReply =
  | { ok: true; json?: string }
  | { ok: false; error: { name: string; message: string; code?: string; dataJson?: string } };

export interface HostFunctionsOptions {
  tools: ToolNamespace;
  bridge: HostBridge;
  logs: LogCollector;
  /** Aborted when the run ends, so upstream calls still in flight are cancelled. */
  signal: AbortSignal;
}

/** The host functions of one run, in the form handed to the prelude's `start`. */
export interface HostFunctions {
  call: ivm.Reference<(server: unknown, tool: unknown, argsJson: unknown) => Promise<HostReply>>;
  search:
    | ivm.Reference<(query: unknown, limit: unknown, minScore: unknown) => Promise<HostReply>>
    | undefined;
  log: ivm.Callback<(level: unknown, message: unknown) => void>;
  /** Bytes of results sent into the isolate so far. */
  bytesIn(): number;
  release(): void;
}

const RUN_ENDED_MESSAGE = "The execution has ended; no more tool calls are accepted";

function errorReply(error: unknown): HostReply {
  const record = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : undefined;
  const name = typeof record?.name === "string" && record.name !== "" ? record.name : "Error";
  const message = typeof record?.message === "string" ? record.message : String(error);
  const reply: HostReply = { ok: false, error: { name, message } };
  if (typeof record?.code === "string") reply.error.code = record.code;
  if (record?.data !== undefined) {
    try {
      reply.error.dataJson = JSON.stringify(record.data);
    } catch {
      // Data that cannot be serialized is dropped; the message still explains the failure.
    }
  }
  return reply;
}

/** Parses JSON produced inside the sandbox; it arrives as an untrusted string. */
function parseArgs(argsJson: unknown): unknown {
  if (typeof argsJson !== "string") throw new TypeError("tool arguments must arrive as a JSON string");
  return JSON.parse(argsJson);
}

function toolKey(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}

/** Builds the host side of the bridge for one run. */
export function createHostFunctions(options: HostFunctionsOptions): HostFunctions {
  const { bridge, logs, signal } = options;
  let bytesIn = 0;
  const valueReply = (value: unknown): HostReply => {
    const json = value === undefined ? undefined : JSON.stringify(value);
    if (json === undefined) return { ok: true };
    bytesIn += Buffer.byteLength(json);
    return { ok: true, json };
  };
  // The isolate only names tools of this run; checked again here in case the prelude is bypassed.
  const allowed = new Set<string>();
  for (const entry of Object.values(options.tools)) {
    for (const tool of Object.values(entry.tools)) allowed.add(toolKey(entry.server, tool));
  }

  const call = async (server: unknown, tool: unknown, argsJson: unknown): Promise<HostReply> => {
    try {
      if (signal.aborted) return errorReply(new Error(RUN_ENDED_MESSAGE));
      if (typeof server !== "string" || typeof tool !== "string" || !allowed.has(toolKey(server, tool))) {
        return errorReply(new TypeError(`Unknown tool ${String(server)}/${String(tool)}`));
      }
      return valueReply(await bridge.callTool(server, tool, parseArgs(argsJson), signal));
    } catch (error) {
      return errorReply(error);
    }
  };

  const search = async (query: unknown, limit: unknown, minScore: unknown): Promise<HostReply> => {
    try {
      if (signal.aborted) return errorReply(new Error(RUN_ENDED_MESSAGE));
      if (bridge.searchTools === undefined) return errorReply(new Error("searchTools is not available"));
      if (typeof query !== "string") return errorReply(new TypeError("query must be a string"));
      const safeLimit = typeof limit === "number" ? limit : undefined;
      const safeMinScore = typeof minScore === "number" ? minScore : undefined;
      return valueReply(await bridge.searchTools(query, safeLimit, safeMinScore));
    } catch (error) {
      return errorReply(error);
    }
  };

  const callReference = new ivm.Reference(call);
  const searchReference = bridge.searchTools === undefined ? undefined : new ivm.Reference(search);
  return {
    call: callReference,
    search: searchReference,
    log: new ivm.Callback((level: unknown, message: unknown) => {
      if (!signal.aborted) logs.add(level, message);
    }),
    bytesIn: () => bytesIn,
    release() {
      callReference.release();
      searchReference?.release();
    },
  };
}
