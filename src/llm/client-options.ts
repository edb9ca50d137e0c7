import { Console } from "node:console";

/** What a hosted-provider client is made from: the resolved `toolscript.llm` section. */
export interface HostedClientOptions {
  model: string;
  /** Resolved by createModelClient (config, else the provider's env variable). */
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  /** Answer budget of a request that names none. */
  maxTokens: number;
  /** The SDK's own retries of 429/5xx/connection failures (exponential backoff, `retry-after` honoured). */
  maxRetries: number;
  /** Milliseconds one attempt may take. */
  timeoutMs: number;
}

/**
 * The SDKs log to `console` (info lines to stdout), which in `serve` carries only
 * MCP: their warnings go to stderr instead, and their `*_LOG` variables are not read.
 */
export const sdkLogging = { logLevel: "warn", logger: new Console(process.stderr) } as const;
