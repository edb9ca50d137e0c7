import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Gateway } from "../../src/gateway/gateway.ts";
import type { Tokenizer } from "../../src/output/tokenizer.ts";
import { createMcpServer } from "../../src/server/create-mcp-server.ts";
import type { UpstreamServerConfig } from "../../src/upstream/types.ts";
import { ContextLedger, resultText } from "./ledger.ts";

/**
 * A direct-tool-calling agent: every definition of every connected server
 * is loaded up front, and every call's arguments and full result pass
 * through the context.
 */
export class DirectAgent {
  readonly ledger: ContextLedger;
  readonly #clients = new Map<string, Client>();

  private constructor(tokenizer: Tokenizer) {
    this.ledger = new ContextLedger(tokenizer);
  }

  static async connect(servers: readonly UpstreamServerConfig[], tokenizer: Tokenizer): Promise<DirectAgent> {
    const agent = new DirectAgent(tokenizer);
    await Promise.all(
      servers.map(async (server) => {
        if (server.kind !== "stdio") throw new Error("direct agent: stdio servers only");
        const client = new Client({ name: "direct-agent", version: "1" });
        await client.connect(
          new StdioClientTransport({
            command: server.command,
            args: server.args,
            env: server.env,
            stderr: "ignore",
            ...(server.cwd && { cwd: server.cwd }),
          }),
        );
        agent.#clients.set(server.name, client);
      }),
    );
    // In server order, as a client would list them.
    for (const server of servers) {
      const { tools } = await (agent.#clients.get(server.name) as Client).listTools();
      agent.ledger.add("definitions", JSON.stringify(tools));
    }
    return agent;
  }

  async call(server: string, tool: string, args: Record<string, unknown>): Promise<string> {
    const client = this.#clients.get(server);
    if (!client) throw new Error(`direct agent: no server ${server}`);
    this.ledger.add("arguments", JSON.stringify({ name: tool, arguments: args }));
    const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 120_000 });
    const text = resultText(result);
    this.ledger.add("results", text);
    if (result.isError) throw new Error(`direct agent: ${server}/${tool} failed: ${text.slice(0, 200)}`);
    return text;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#clients.values()].map((client) => client.close()));
  }
}

/**
 * A code-mode agent talking to the gateway over MCP: it loads the gateway's
 * meta-tool definitions, reads search answers and declarations, sends code,
 * and reads the answers. Everything counted is what the gateway produced.
 */
export class CodeModeAgent {
  readonly ledger: ContextLedger;
  readonly #client: Client;

  private constructor(client: Client, tokenizer: Tokenizer) {
    this.#client = client;
    this.ledger = new ContextLedger(tokenizer);
  }

  static async connect(gateway: Gateway, tokenizer: Tokenizer): Promise<CodeModeAgent> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(gateway).connect(serverSide);
    const client = new Client({ name: "code-mode-agent", version: "1" });
    await client.connect(clientSide);
    const agent = new CodeModeAgent(client, tokenizer);
    const { tools } = await client.listTools();
    agent.ledger.add("definitions", JSON.stringify(tools));
    return agent;
  }

  /** Calls a meta-tool; returns its text answer and structured content. */
  async call(
    kind: string,
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ text: string; structured: unknown }> {
    this.ledger.add(`${kind} (sent)`, JSON.stringify({ name, arguments: args }));
    const result = await this.#client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    const text = resultText(result);
    this.ledger.add(`${kind} (read)`, text);
    if (result.isError) throw new Error(`code-mode agent: ${name} failed: ${text.slice(0, 500)}`);
    return { text, structured: result.structuredContent };
  }

  /** search_tools, checking that the expected tool is among the results. */
  async search(query: string, expect: string, limit = 5): Promise<string> {
    const { structured } = await this.call("search", "search_tools", { query, limit });
    const results = (structured as { results: Array<{ server: string; tool: string; path: string }> })
      .results;
    const hit = results.find((result) => `${result.server}/${result.tool}` === expect);
    if (!hit) {
      throw new Error(
        `search "${query}" did not return ${expect}: ${results.map((r) => `${r.server}/${r.tool}`).join(", ")}`,
      );
    }
    return hit.path;
  }

  async close(): Promise<void> {
    await this.#client.close();
  }
}
