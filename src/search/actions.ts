import { stem } from "./tokenize.ts";

/**
 * What a tool does, as the verbs tools are named for: each group is one action ("delete",
 * "remove" and "drop" a thing are one). A tool's name says its action (fields.ts); a request's
 * first action word says what it wants done (query.ts), and a tool that does it outranks one
 * that only matches the things the request names ("post a message to the team channel":
 * `post_message` before `list_channels`).
 */
const GROUPS: readonly string[] = [
  "save write store persist export",
  "delete remove erase drop destroy purge unlink",
  "get fetch retrieve obtain read load download",
  "find search lookup locate discover",
  "create make add generate build insert",
  "update modify edit change patch set alter rename",
  "list enumerate display browse",
  "run execute launch start invoke trigger",
  "stop kill terminate cancel abort halt",
  "send post publish share notify",
  "upload push put",
  "open navigate visit",
];

let table: Map<string, readonly string[]> | undefined;

/**
 * The actions a stem names, as index terms: `~` and the group's first verb ("~delete" for
 * "remove"), which no word of a request reads as or begins (see partial-matches.ts); [] for a
 * stem that names none.
 */
export function actionsOf(term: string): readonly string[] {
  if (!table) {
    const built = new Map<string, string[]>();
    for (const group of GROUPS) {
      const words = group.split(" ");
      for (const word of words) {
        const actions = built.get(stem(word)) ?? [];
        actions.push(`~${words[0]}`);
        built.set(stem(word), actions);
      }
    }
    table = built;
  }
  return table.get(term) ?? [];
}
