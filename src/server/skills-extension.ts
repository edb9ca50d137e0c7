import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type Resource,
  type ServerContext,
} from "@modelcontextprotocol/server";
import {
  DIRECTORY_MIME_TYPE,
  type Skill,
  type SkillReadResult,
  type SkillSource,
  SkillsExtension,
  skillEntry,
} from "@modelcontextprotocol/server/ext/skills";
import type { Gateway } from "../gateway/gateway.ts";
import {
  type McpSkillFolder,
  mcpSkillFileMimeType,
  mcpSkillFolder,
  SKILL_MANIFEST,
} from "../skills/mcp-skill-folder.ts";
import { MCP_SKILL_NAME, mcpSkillNames } from "../skills/mcp-skill-names.ts";
import type { SkillVersion } from "../store/types.ts";
import type { Caller } from "./caller.ts";

/** Where skills are served: `skill://<name>/SKILL.md`, the scheme SEP-2640 recommends. */
export const SKILL_BASE_URI = "skill://";
/** Entries per `skills/list` and directory page. */
export const SKILLS_PAGE_SIZE = 100;

/**
 * Serves the saved skills through the MCP skills extension (SEP-2640, the
 * SDK's `SkillsExtension` over a `SkillSource`): `skills/list`, `skills/get`,
 * `resources/directory/read`, and each skill's files as `skill://` resources —
 * `SKILL.md` (frontmatter from the skill), `scripts/index.ts|py` (its code),
 * `references/index.d.ts|pyi` (its declaration). Each request sees what its
 * session sees (shared skills and the session's private ones), like
 * `toolscript://skills/`. Attach before connecting: it declares the capability.
 */
export function attachSkillsExtension(server: McpServer, gateway: Gateway, caller: Caller): void {
  const folders = (ctx: ServerContext) =>
    visibleFolders(gateway.skills.list({ session: caller.defaultSession(ctx) }));
  const source: SkillSource = {
    async list({ cursor }, ctx) {
      const all = [...folders(ctx).values()];
      if (cursor !== undefined && !MCP_SKILL_NAME.test(cursor))
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `invalid skills/list cursor ${JSON.stringify(cursor)}`,
        );
      const start = cursor === undefined ? 0 : all.findIndex((entry) => entry.folder.name > cursor);
      const page = start < 0 ? [] : all.slice(start, start + SKILLS_PAGE_SIZE);
      const skills = (await Promise.all(page.map(entryOf))).filter((skill) => skill !== undefined);
      const more = start >= 0 && start + SKILLS_PAGE_SIZE < all.length;
      return more ? { skills, nextCursor: page.at(-1)?.folder.name ?? "" } : { skills };
    },
    async get(uri, ctx) {
      const target = parseSkillUri(uri);
      if (target?.path !== SKILL_MANIFEST) return undefined;
      const entry = folders(ctx).get(target.name);
      return entry && (await entryOf(entry));
    },
    async read(uri, ctx) {
      const target = parseSkillUri(uri);
      const folder = target && folders(ctx).get(target.name)?.folder;
      const text = target && folder?.files[target.path];
      if (text === undefined) return undefined;
      return { text, mimeType: mcpSkillFileMimeType(target?.path ?? "") } satisfies SkillReadResult;
    },
    async readDirectory(uri, { cursor }, ctx) {
      const target = parseSkillUri(uri);
      const folder = target && folders(ctx).get(target.name)?.folder;
      if (!target || !folder) return undefined;
      const children = directoryChildren(folder, target.path);
      if (!children) return undefined;
      const start = cursor === undefined ? 0 : children.findIndex((child) => child.uri > cursor);
      const page = start < 0 ? [] : children.slice(start, start + SKILLS_PAGE_SIZE);
      const more = start >= 0 && start + SKILLS_PAGE_SIZE < children.length;
      return more ? { resources: page, nextCursor: page.at(-1)?.uri ?? "" } : { resources: page };
    },
    async listResources(ctx) {
      return [...folders(ctx).values()].map(({ folder }) => ({
        uri: fileUri(folder.name, SKILL_MANIFEST),
        name: folder.name,
        description: folder.description,
        mimeType: mcpSkillFileMimeType(SKILL_MANIFEST),
        size: byteLength(folder.files[SKILL_MANIFEST] ?? ""),
      }));
    },
  };
  new SkillsExtension({
    source,
    baseUri: SKILL_BASE_URI,
    // Skills change with every save_skill and differ per session: never shared, not kept.
    cacheHint: { ttlMs: 0, cacheScope: "private" },
    onWarning: (warning) =>
      process.stderr.write(`toolscript: skills extension: ${warning.path}: ${warning.message}\n`),
  }).attach(server);
}

interface VisibleSkill {
  skill: SkillVersion;
  folder: McpSkillFolder;
}

/** The skills a viewer sees, by published name, in URI order (the listing's order). */
function visibleFolders(skills: readonly SkillVersion[]): Map<string, VisibleSkill> {
  const names = mcpSkillNames(skills.map((skill) => skill.name));
  const visible: VisibleSkill[] = [];
  for (const skill of skills) {
    const name = names.get(skill.name);
    if (name !== undefined) visible.push({ skill, folder: mcpSkillFolder(skill, name) });
  }
  visible.sort((a, b) => (a.folder.name < b.folder.name ? -1 : a.folder.name > b.folder.name ? 1 : 0));
  return new Map(visible.map((entry) => [entry.folder.name, entry]));
}

/**
 * The skill entry (digests and sizes of its files), built by the SDK's `skillEntry`,
 * which also checks the Agent Skills rules. Built per request: a few hashes of small
 * texts, never stale.
 */
async function entryOf({ skill, folder }: VisibleSkill): Promise<Skill | undefined> {
  try {
    return await skillEntry(folder.name, folder.files, { baseUri: SKILL_BASE_URI });
  } catch (error) {
    // Not expected (the folder is built to the rules): the skill is left out rather than failing the listing.
    process.stderr.write(
      `toolscript: skills extension: skill "${skill.name}" not published: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return undefined;
  }
}

/** `skill://<name>/<path>` → its parts; `path` is "" for the skill's folder itself. */
function parseSkillUri(uri: string): { name: string; path: string } | undefined {
  if (!uri.startsWith(SKILL_BASE_URI) || /[?#]/.test(uri)) return undefined;
  const [name = "", ...rest] = uri.slice(SKILL_BASE_URI.length).replace(/\/$/, "").split("/");
  if (
    !MCP_SKILL_NAME.test(name) ||
    rest.some((segment) => segment === "" || segment === "." || segment === "..")
  )
    return undefined;
  return { name, path: rest.join("/") };
}

function fileUri(name: string, path: string): string {
  return path === "" ? `${SKILL_BASE_URI}${name}` : `${SKILL_BASE_URI}${name}/${path}`;
}

/** The direct children of folder `dir` ("" for the skill's root) in URI order; undefined when it is no folder. */
function directoryChildren(folder: McpSkillFolder, dir: string): Resource[] | undefined {
  const prefix = dir === "" ? "" : `${dir}/`;
  const children = new Map<string, Resource>();
  for (const [path, text] of Object.entries(folder.files)) {
    if (!path.startsWith(prefix)) continue;
    const [child = "", ...deeper] = path.slice(prefix.length).split("/");
    const uri = fileUri(folder.name, `${prefix}${child}`);
    children.set(
      uri,
      deeper.length > 0
        ? { uri, name: child, mimeType: DIRECTORY_MIME_TYPE }
        : { uri, name: child, mimeType: mcpSkillFileMimeType(child), size: byteLength(text) },
    );
  }
  if (children.size === 0) return undefined;
  return [...children.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
