import type { CallToolResult } from "@modelcontextprotocol/client";

/**
 * What the model reads of an MCP tool result: its text blocks joined by newlines,
 * as a chat client shows them. Other blocks are named in one line (a model API
 * here carries text only); with no content at all, the structured content as JSON.
 */
export function resultText(result: CallToolResult): string {
  const parts = result.content.map(blockText);
  if (parts.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return parts.join("\n");
}

function blockText(block: CallToolResult["content"][number]): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}, ${Math.round((block.data.length * 3) / 4)} bytes]`;
    case "resource_link":
      return `[resource ${block.uri}${block.name ? ` (${block.name})` : ""}]`;
    case "resource":
      return "text" in block.resource && typeof block.resource.text === "string"
        ? block.resource.text
        : `[resource ${block.resource.uri}${block.resource.mimeType ? `, ${block.resource.mimeType}` : ""}]`;
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}
