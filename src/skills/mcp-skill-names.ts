import { createHash } from "node:crypto";

/** The Agent Skills name rule that SEP-2640 names follow: 1-64 lowercase letters, digits and single hyphens. */
export const MCP_SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_LENGTH = 64;
const SUFFIX_LENGTH = 6;

/**
 * A ToolScript skill name (letters, digits, `_`, `-`, starting with a
 * letter) in the Agent Skills form: camelCase split, `_` read as `-`,
 * lowercased, hyphens single, at most 64 characters. `fetch_weather` and
 * `fetchWeather` both become `fetch-weather`.
 */
export function slugSkillName(name: string): string {
  const slug = name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return trimHyphens(slug.slice(0, MAX_LENGTH)) || "skill";
}

/**
 * The names the skills extension publishes for `names` (one listing's skills):
 * each skill's slug, unique within the listing. When several skills share a
 * slug, the one whose name already is it keeps it and the others get a suffix
 * from a hash of their own name (`foo-bar-3fa9c1`), so a name never depends
 * on the order skills were saved in. A skill missing from the map has no name
 * to publish (its suffixed name is another skill's own name).
 */
export function mcpSkillNames(names: readonly string[]): Map<string, string> {
  const bySlug = new Map<string, string[]>();
  for (const name of names) {
    const slug = slugSkillName(name);
    bySlug.set(slug, [...(bySlug.get(slug) ?? []), name]);
  }
  const published = new Map<string, string>();
  for (const [slug, group] of bySlug) {
    const owner = group.length === 1 ? group[0] : group.find((name) => name === slug);
    for (const name of group) published.set(name, name === owner ? slug : suffixed(slug, name));
  }
  // A suffixed name that another skill holds as its own (only by design, e.g. `foo-bar-3fa9c1`): left unpublished.
  const holders = new Map<string, string>();
  for (const [name, mcpName] of published) {
    const holder = holders.get(mcpName);
    const keep = holder === undefined || name === mcpName ? name : holder;
    if (holder !== undefined) published.delete(keep === name ? holder : name);
    holders.set(mcpName, keep);
  }
  return published;
}

function suffixed(slug: string, name: string): string {
  const hash = createHash("sha256").update(name).digest("hex").slice(0, SUFFIX_LENGTH);
  return `${trimHyphens(slug.slice(0, MAX_LENGTH - SUFFIX_LENGTH - 1))}-${hash}`;
}

function trimHyphens(text: string): string {
  return text.replace(/-+$/, "");
}
