import type { CallToolResult } from "@modelcontextprotocol/client";
import type { CatalogTool } from "../catalog/types.ts";
import { BridgeError } from "./errors.ts";

/** Longest tool error text quoted in a ToolError message; the full content stays in `data`. */
const MAX_ERROR_MESSAGE_CHARS = 2000;

type ContentPart = CallToolResult["content"][number];

/**
 * The value code receives for a tool result (DESIGN.md): `structuredContent`
 * when present; else text parsed as JSON when it is a JSON object or array,
 * else the text; images, audio and resources as plain objects. Several
 * content parts become an array. `isError` results throw a ToolError.
 */
export function shapeResult(tool: CatalogTool, result: CallToolResult): unknown {
  const content = Array.isArray(result.content) ? result.content : [];
  if (result.isError) {
    const text = content
      .map((part) => (part.type === "text" ? part.text : ""))
      .join("\n")
      .trim();
    const message =
      text.length > MAX_ERROR_MESSAGE_CHARS ? `${text.slice(0, MAX_ERROR_MESSAGE_CHARS)}…` : text;
    throw new BridgeError(
      "ToolError",
      "tool.failed",
      `${tool.server}/${tool.tool} failed: ${message || "(no message)"}`,
      {
        server: tool.server,
        tool: tool.tool,
        content: content.map(shapePart),
        ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent }),
      },
    );
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (content.length === 0) return null;
  if (content.length === 1) return shapePart(content[0] as ContentPart);
  return content.map(shapePart);
}

function shapePart(part: ContentPart): unknown {
  switch (part.type) {
    case "text":
      return parseJsonText(part.text);
    case "image":
    case "audio":
      return { type: part.type, mimeType: part.mimeType, data: part.data };
    case "resource":
      return { type: "resource", ...part.resource };
    case "resource_link":
      return { ...part };
    default:
      return { ...(part as object) };
  }
}

function parseJsonText(text: string): unknown {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
