import type { Client } from "@modelcontextprotocol/client";
import type { ToolDefinition } from "../catalog/types.ts";

/** Guards against a server that returns cursors forever. */
const MAX_PAGES = 1000;

/** Lists every tool of a server, following `nextCursor` pagination. */
export async function listAllTools(client: Client, signal?: AbortSignal): Promise<ToolDefinition[]> {
  const tools: ToolDefinition[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, signal ? { signal } : {});
    for (const tool of result.tools) tools.push(tool as ToolDefinition);
    cursor = result.nextCursor;
    if (cursor === undefined || seen.has(cursor)) return tools;
    seen.add(cursor);
  }
  throw new Error(`tools/list returned more than ${MAX_PAGES} pages`);
}
