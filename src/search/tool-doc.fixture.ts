import type { SearchDocument } from "./types.ts";

/** A tool document for index tests: server `s` unless given, no parameters unless given. */
export function toolDoc(
  name: string,
  description: string,
  { server = "s", params = [] }: { server?: string; params?: SearchDocument["params"] } = {},
): SearchDocument {
  return { id: `${server}/${name}`, kind: "tool", server, name, description, params };
}
