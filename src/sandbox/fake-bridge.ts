import type { HostBridge, HostErrorData, ToolNamespace } from "./types.ts";

export type FakeToolHandler = (args: unknown, signal: AbortSignal) => unknown;

export interface FakeToolCall {
  server: string;
  tool: string;
  args: unknown;
  signal: AbortSignal;
}

/** A host error as the real bridge rejects with it. */
export function hostError(name: string, message: string, code?: string, data?: unknown): HostErrorData {
  const error: HostErrorData = { name, message };
  if (code !== undefined) error.code = code;
  if (data !== undefined) error.data = data;
  return error;
}

/**
 * An in-memory `HostBridge` for tests of sandbox tiers: tools are plain
 * functions keyed by `server/tool` (original names), and every call is recorded.
 */
export class FakeBridge implements HostBridge {
  readonly calls: FakeToolCall[] = [];
  readonly #handlers: Map<string, FakeToolHandler>;
  readonly searchTools?: HostBridge["searchTools"];

  constructor(handlers: Record<string, FakeToolHandler>, search?: HostBridge["searchTools"]) {
    this.#handlers = new Map(Object.entries(handlers));
    if (search) this.searchTools = search;
  }

  async callTool(server: string, tool: string, args: unknown, signal: AbortSignal): Promise<unknown> {
    this.calls.push({ server, tool, args, signal });
    const handler = this.#handlers.get(`${server}/${tool}`);
    if (handler === undefined)
      throw hostError("ToolError", `no such tool ${server}/${tool}`, "tool.not_found");
    return handler(args, signal);
  }

  /** The tool namespace for these handlers, with identifiers made from the original names. */
  namespace(): ToolNamespace {
    const namespace: ToolNamespace = {};
    for (const key of this.#handlers.keys()) {
      const [server = "", tool = ""] = key.split("/");
      const serverId = server.replace(/\W/g, "_");
      namespace[serverId] ??= { server, tools: {} };
      namespace[serverId].tools[tool.replace(/\W/g, "_")] = tool;
    }
    return namespace;
  }
}
