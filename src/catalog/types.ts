/** A JSON Schema as it arrives from the wire: any JSON object, checked where it is read. */
export type JsonSchema = { readonly [key: string]: unknown };

/** MCP tool annotations (spec 2025-06-18), all optional hints. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One tool as an upstream server lists it (`tools/list`), names untouched. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
}

/** A tool in the gateway's catalog: the original names plus the identifiers code uses. */
export interface CatalogTool {
  /** Original server name from the config (`mcpServers` key). */
  server: string;
  /** Original tool name as the upstream lists it. */
  tool: string;
  /** Valid, deterministic JS identifier for the server (`tools.<serverId>`). */
  serverId: string;
  /** Valid, deterministic JS identifier for the tool, unique within its server. */
  toolId: string;
  /** Call path shown to the agent: `tools.<serverId>.<toolId>`. */
  path: string;
  definition: ToolDefinition;
}
