import { z } from "zod";
import type { ResolveContext } from "./context.ts";
import type { ServerConfig } from "./servers.ts";
import { resolveServerEntry, serverEntrySchema } from "./servers.ts";
import type { ToolscriptSettings } from "./settings.ts";
import { createSettingsSchema } from "./settings.ts";

/** The top-level keys ToolScript reads; others (`$schema`, client settings) are ignored. */
export const CONFIG_KEYS = ["mcpServers", "toolscript"] as const;

/** Where a config came from: a file, built-in defaults (no file in cwd), or an in-memory object. */
export type ConfigSource = "file" | "defaults" | "inline";

/** A complete, validated config: every default filled, every `${VAR}` expanded, paths absolute. */
export interface Config {
  source: ConfigSource;
  /** Absolute path of the config file when `source` is `"file"`. */
  file?: string;
  /** Directory relative paths were resolved against. */
  baseDir: string;
  /** In file order, disabled servers included (`disabled: true`). */
  servers: ServerConfig[];
  /** The `toolscript` section. */
  settings: ToolscriptSettings;
}

function createServersSchema(ctx: ResolveContext) {
  // Resolved per entry, so every entry's problems are reported even when another entry is broken.
  const entry = serverEntrySchema.transform(
    (raw, zctx) =>
      resolveServerEntry(raw, ctx, (path, message) =>
        zctx.issues.push({ code: "custom", path, message, input: raw }),
      ) ?? z.NEVER,
  );
  return z
    .record(z.string().min(1, { error: "server name must not be empty" }), entry)
    .optional()
    .transform((entries): ServerConfig[] =>
      Object.entries(entries ?? {}).map(([name, server]) => ({ ...server, name })),
    );
}

/** The whole file: `mcpServers` as MCP clients write it plus the `toolscript` section. */
export function createConfigSchema(ctx: ResolveContext) {
  return z.object({
    mcpServers: createServersSchema(ctx),
    toolscript: createSettingsSchema(ctx).prefault({}),
  });
}
