import { setMaxListeners } from "node:events";
import type { HostBridge, ToolNamespace } from "../types.ts";
import { hostOperation, isUpstreamOperation } from "./host-operations.ts";
import { jsonOf } from "./serialized-value.ts";

/** What a host function sends back into the sandbox. It always resolves: a rejection could carry host stacks. */
export type HostReply =
  | { ok: true; json?: string }
  | { ok: false; error: { name: string; message: string; code?: string; dataJson?: string } };

export interface HostCallsOptions {
  tools: ToolNamespace;
  bridge: HostBridge;
  /** Receives console output; called only while the run is live. */
  logs: { add(level: unknown, message: unknown): void };
  /** Aborted when the run ends, so upstream calls still in flight are cancelled. */
  signal: AbortSignal;
  /** Bytes of tool and search results (JSON) the run may take in; past it calls fail with LimitError. */
  maxResultBytes?: number | undefined;
}

/**
 * The host side of the bridge for one run, independent of the sandbox tier:
 * every argument comes from the sandbox and is checked here.
 */
export interface HostCalls {
  call(server: unknown, tool: unknown, argsJson: unknown): Promise<HostReply>;
  /** Undefined when the bridge offers no search. */
  search: ((query: unknown, limit: unknown, minScore: unknown) => Promise<HostReply>) | undefined;
  log(level: unknown, message: unknown): void;
  /** Workspace and skill operations (`workspace.readFile`, `skill.load`, ...): JSON arguments in, a reply out. */
  op(name: unknown, argsJson: unknown): Promise<HostReply>;
  /** Bytes of results sent into the sandbox so far. */
  bytesIn(): number;
}

const RUN_ENDED_MESSAGE = "The execution has ended; no more tool calls are accepted";

export function errorReply(error: unknown): HostReply {
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
  if (typeof argsJson !== "string") throw new TypeError("arguments must arrive as a JSON string");
  return JSON.parse(argsJson);
}

function toolKey(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}

/** Builds the host side of the bridge for one run. */
export function createHostCalls(options: HostCallsOptions): HostCalls {
  const { bridge, logs, signal } = options;
  let bytesIn = 0;
  const maxResultBytes = options.maxResultBytes ?? Number.POSITIVE_INFINITY;
  // Many calls share the run's signal (queued behind an upstream's concurrency cap): not a leak.
  setMaxListeners(0, signal);
  const valueReply = (value: unknown): HostReply => {
    const { json, bytes } = jsonOf(value);
    if (json === undefined) return { ok: true };
    if (bytesIn + bytes > maxResultBytes) {
      return errorReply({
        name: "LimitError",
        code: "limit.result_bytes",
        message: `this result (${bytes} bytes) would take the execution past its ${maxResultBytes} bytes of tool results (sandbox.maxResultBytes); ${bytesIn} bytes came in so far`,
        data: { limit: maxResultBytes, received: bytesIn, refused: bytes },
      });
    }
    bytesIn += bytes;
    return { ok: true, json };
  };
  // The sandbox only names tools of this run; checked again here in case the prelude is bypassed.
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

  return {
    call,
    search: bridge.searchTools === undefined ? undefined : search,
    async op(name, argsJson) {
      try {
        if (signal.aborted) return errorReply(new Error(RUN_ENDED_MESSAGE));
        const value = await hostOperation(bridge, name, parseArgs(argsJson), signal);
        // Resources and prompts are upstream data like tool results, and count as such.
        if (isUpstreamOperation(name)) return valueReply(value);
        // Workspace files and skills are not counted in bytesIn: it counts what came from upstreams.
        const json = value === undefined ? undefined : JSON.stringify(value);
        return json === undefined ? { ok: true } : { ok: true, json };
      } catch (error) {
        return errorReply(error);
      }
    },
    log(level, message) {
      if (!signal.aborted) logs.add(level, message);
    },
    bytesIn: () => bytesIn,
  };
}
