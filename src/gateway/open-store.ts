import type { ToolscriptSettings } from "../config/settings.ts";
import type { SharedStore } from "../store/domains.ts";
import { openSharedStore } from "../store/open-shared-store.ts";
import { openMemorySharedStore } from "../store/sqlite-shared-store.ts";
import type { Logger } from "./logger.ts";

/**
 * The store `storage` names, and the data directory when it is the SQLite
 * database there (the credential key file lives beside it). A PostgreSQL
 * store that does not answer stops the start (no silent fallback to local
 * state); a data directory that cannot be opened is replaced by memory, loudly.
 */
export async function openGatewayStore(
  storage: ToolscriptSettings["storage"],
  logger: Logger,
): Promise<{ store: SharedStore; dir: string | undefined }> {
  const warn = (message: string) => logger.warn(message);
  if (storage.url !== undefined) return { store: await openSharedStore(storage, { warn }), dir: undefined };
  try {
    return { store: await openSharedStore(storage, { warn }), dir: storage.dir };
  } catch (error) {
    // Serving without persistence beats not serving: say so loudly, keep everything else working.
    logger.warn(
      `cannot open the data directory ${storage.dir} (storage.dir): ${error instanceof Error ? error.message : String(error)}; sessions, skills and the audit log are kept in memory until the gateway stops`,
    );
    return { store: openMemorySharedStore(), dir: undefined };
  }
}
