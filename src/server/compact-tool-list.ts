import type { McpServer } from "@modelcontextprotocol/server";

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * Drops `$schema` and the default `execution: { taskSupport: "forbidden" }`
 * that the SDK adds to every tool definition: about 25 tokens per meta-tool
 * in every agent's starting context, and nothing a model uses. The SDK keeps
 * its request handlers in a private map; if that ever changes this is a
 * no-op (the starting-definitions test then fails loudly).
 */
export function compactToolList(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  const original = handlers?.get("tools/list");
  if (!handlers || !original) return;
  handlers.set("tools/list", async (request, extra) => {
    const result = (await original(request, extra)) as { tools?: Array<Record<string, unknown>> };
    return { ...result, tools: (result.tools ?? []).map(compactTool) };
  });
}

function compactTool(tool: Record<string, unknown>): Record<string, unknown> {
  const { execution, inputSchema, outputSchema, ...rest } = tool;
  const keepExecution = (execution as { taskSupport?: string } | undefined)?.taskSupport !== "forbidden";
  return {
    ...rest,
    inputSchema: withoutSchemaKey(inputSchema),
    ...(outputSchema !== undefined && { outputSchema: withoutSchemaKey(outputSchema) }),
    ...(keepExecution && execution !== undefined && { execution }),
  };
}

function withoutSchemaKey(schema: unknown): unknown {
  if (schema === null || typeof schema !== "object") return schema;
  const { $schema: _dropped, ...rest } = schema as Record<string, unknown>;
  return rest;
}
