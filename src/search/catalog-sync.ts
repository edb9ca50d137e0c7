import type { Catalog } from "../catalog/catalog.ts";
import { catalogDocuments } from "./documents.ts";
import type { SearchIndex } from "./types.ts";

/**
 * Keeps `index` equal to the catalog's tools: indexes every server now, then
 * re-indexes a server whenever the catalog reports a change to it (connect,
 * reconnect, `list_changed`; a disconnected server has no tools, so its documents
 * go). `serverDescription` supplies each server's one-line description, if any.
 * Returns the function that stops following the catalog.
 */
export function syncIndexWithCatalog(
  index: SearchIndex,
  catalog: Catalog,
  serverDescription: (server: string) => string | undefined = () => undefined,
): () => void {
  const reindex = (server: string) => {
    const entry = catalog.server(server);
    if (!entry) index.removeServer(server);
    else index.replaceServer(server, catalogDocuments(entry.tools, serverDescription(server)));
  };
  for (const entry of catalog.servers()) reindex(entry.server);
  return catalog.onChange(reindex);
}
