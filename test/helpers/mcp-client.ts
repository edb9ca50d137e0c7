import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cliArgs } from "./servers.ts";

export interface ExecuteAnswer {
  text: string;
  structured: {
    result?: unknown;
    logs: Array<{ level: string; message: string }>;
    toolCalls: number;
    durationMs: number;
    error?: { kind: string; name: string; message: string; line?: number; column?: number };
  };
  isError: boolean;
}

/** Calls execute_code through a real MCP client and unpacks the answer. */
export async function execute(
  client: Client,
  code: string,
  extra: Record<string, unknown> = {},
): Promise<ExecuteAnswer> {
  const result = await client.callTool({ name: "execute_code", arguments: { code, ...extra } }, undefined, {
    timeout: 30_000,
  });
  const content = result.content as Array<{ type: string; text?: string }>;
  return {
    text: content.map((part) => part.text ?? "").join("\n"),
    structured: result.structuredContent as ExecuteAnswer["structured"],
    isError: result.isError === true,
  };
}

export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ text?: string }> }).content ?? [];
  return content.map((part) => part.text ?? "").join("\n");
}

/**
 * `toolscript serve` answers at once and servers join as they connect: waits
 * (polling list_tools, at most `timeoutMs`) until no server line of the
 * execute_code description says it is still connecting. Returns the description.
 */
export async function untilServersSettled(client: Client, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { tools } = await client.listTools();
    const description = tools.find((tool) => tool.name === "execute_code")?.description ?? "";
    if (!/^- \S+: connecting \(/m.test(description) || Date.now() > deadline) return description;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Writes `config` as `dir/toolscript.config.json` and connects a stock SDK client to `toolscript serve` on stdio. */
export async function connectServe(dir: string, config: unknown, name: string): Promise<Client> {
  const file = join(dir, "toolscript.config.json");
  writeFileSync(file, JSON.stringify(config));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cliArgs("serve", "--config", file),
    stderr: "pipe",
  });
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  return client;
}
