/**
 * The line-delimited JSON protocol between the host and the Deno runner
 * (runner-source.ts). Everything the child writes is untrusted: agent code can
 * write to stdout too, so each message is checked here and forged ones can do
 * no more than the agent's own code could.
 */
import type { HostReply } from "../shared/host-calls.ts";

/** Host to child: the one execution this process serves, then replies to its requests. */
export type HostMessage =
  | {
      type: "run";
      code: string;
      toolsJson: string;
      contextJson?: string;
      /** The run's limits as JSON: `{ maxLogBytes, maxOutputBytes }`. */
      limitsJson: string;
      search: boolean;
      /** Python only: the skills the program may import, name -> source, as JSON. */
      skillsJson?: string;
    }
  | { type: "reply"; id: number; reply: HostReply };

/** Child to host. */
export type ChildMessage =
  | { type: "ready" }
  | { type: "call"; id: number; server: unknown; tool: unknown; args: unknown }
  | { type: "search"; id: number; query: unknown; limit: unknown; minScore: unknown }
  | { type: "op"; id: number; op: unknown; args: unknown }
  | { type: "log"; level: unknown; message: unknown }
  | { type: "done"; report: unknown }
  | { type: "compileError"; name: string; message: string }
  /** Python only: the driver's answer, JSON text of `{ result }` or `{ error }`. */
  | { type: "outcome"; json: unknown }
  /** Python only, from a process started to make one: the memory snapshot. */
  | { type: "snapshot"; base64: unknown };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

/** Parses one line from the child; undefined for anything malformed. */
export function parseChildMessage(line: string): ChildMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  switch (value.type) {
    case "ready":
      return { type: "ready" };
    case "call":
      if (!isId(value.id)) return undefined;
      return { type: "call", id: value.id, server: value.server, tool: value.tool, args: value.args };
    case "search":
      if (!isId(value.id)) return undefined;
      return {
        type: "search",
        id: value.id,
        query: value.query,
        limit: value.limit,
        minScore: value.minScore,
      };
    case "op":
      if (!isId(value.id)) return undefined;
      return { type: "op", id: value.id, op: value.op, args: value.args };
    case "log":
      return { type: "log", level: value.level, message: value.message };
    case "done":
      return { type: "done", report: value.report };
    case "compileError":
      return {
        type: "compileError",
        name: typeof value.name === "string" ? value.name : "Error",
        message: typeof value.message === "string" ? value.message : "",
      };
    case "outcome":
      return { type: "outcome", json: value.json };
    case "snapshot":
      return { type: "snapshot", base64: value.base64 };
    default:
      return undefined;
  }
}

/** One JSON line for the child's stdin. */
export function encodeHostMessage(message: HostMessage): string {
  return `${JSON.stringify(message)}\n`;
}
