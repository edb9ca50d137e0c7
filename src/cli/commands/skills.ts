import { resolve } from "node:path";
import { defineCommand } from "citty";
import { firstSentence } from "../../catalog/declaration/summary.ts";
import { renderTree } from "../../catalog/declaration/tree.ts";
import { loadConfig } from "../../config/load.ts";
import { declarePythonSkill } from "../../skills/python-skill.ts";
import { declareSkill } from "../../skills/skill-declaration.ts";
import { renderSkillDeclaration } from "../../skills/skill-documents.ts";
import type { SharedStore } from "../../store/domains.ts";
import { openSharedStore } from "../../store/open-shared-store.ts";
import { exportSkills, importSkills, readSkillFolders } from "../../store/skill-files.ts";
import { CliError } from "../cli-error.ts";
import { openGateway } from "../open-gateway.ts";
import { COMMAND_META } from "./meta.ts";

const configArg = {
  config: {
    type: "string",
    description: "Config file (default: ./.mcp.json, else ./toolscript.config.json)",
    valueHint: "FILE",
  },
} as const;

/** Opens the configured store (PostgreSQL with `storage.url`, else SQLite in `storage.dir`); no upstream server is started. */
async function withStore<T>(
  configPath: string | undefined,
  use: (store: SharedStore) => Promise<T>,
): Promise<T> {
  const config = await loadConfig({ path: configPath, cwd: process.cwd(), env: process.env });
  const store = await openSharedStore(config.settings.storage, {
    warn: (message) => process.stderr.write(`toolscript: ${message}\n`),
  });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

const list = defineCommand({
  meta: { name: "list", description: "List saved skills (latest versions), private ones included" },
  args: { ...configArg, json: { type: "boolean", description: "Print JSON" } },
  async run({ args }) {
    await withStore(args.config, async (store) => {
      const skills = await store.skills.list({ includePrivate: true });
      if (args.json) {
        const rows = skills.map(({ code: _code, ...rest }) => rest);
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      const width = Math.max(0, ...skills.map((skill) => skill.name.length));
      for (const skill of skills) {
        const flags = `v${skill.version}${skill.visibility === "private" ? ` private:${skill.ownerSession}` : ""}`;
        process.stdout.write(
          `${skill.name.padEnd(width)}  ${flags}  ${firstSentence(skill.description, 80)}\n`,
        );
      }
      process.stderr.write(`${skills.length} skills in ${store.location}\n`);
    });
  },
});

const show = defineCommand({
  meta: { name: "show", description: "Print a skill's declaration, description and code" },
  args: {
    name: { type: "positional", required: true, description: "Skill name" },
    version: { type: "string", description: "A version (default: the latest)", valueHint: "N" },
    ...configArg,
  },
  async run({ args }) {
    const version = args.version === undefined ? undefined : Number(args.version);
    await withStore(args.config, async (store) => {
      const skill = await store.skills.get(args.name, { includePrivate: true, version });
      if (!skill) throw new CliError(`no skill "${args.name}"${version ? ` version ${version}` : ""}`);
      const versions = (await store.skills.versions(args.name, { includePrivate: true })).length;
      process.stdout.write(
        `${renderSkillDeclaration(skill)}\n// ---- code (${versions} versions) ----\n${skill.code.trimEnd()}\n`,
      );
    });
  },
});

const rm = defineCommand({
  meta: { name: "rm", description: "Remove a skill, every version" },
  args: { name: { type: "positional", required: true, description: "Skill name" }, ...configArg },
  async run({ args }) {
    await withStore(args.config, async (store) => {
      if (!(await store.skills.remove(args.name, { includePrivate: true })))
        throw new CliError(`no skill "${args.name}"`);
      process.stderr.write(`removed skill "${args.name}"\n`);
    });
  },
});

const exportCommand = defineCommand({
  meta: {
    name: "export",
    description: "Write shared skills as folders (SKILL.md, index.ts, index.d.ts, skill.json)",
  },
  args: {
    dir: { type: "positional", required: true, description: "Target folder" },
    private: { type: "boolean", description: "Include private skills" },
    ...configArg,
  },
  async run({ args }) {
    await withStore(args.config, async (store) => {
      const written = await exportSkills(store.skills, resolve(args.dir), {
        includePrivate: args.private === true,
      });
      process.stderr.write(`exported ${written.length} skills to ${resolve(args.dir)}\n`);
    });
  },
});

/**
 * Import checks every skill like save_skill does, so it connects to the
 * configured servers: their tools' declarations are what skills type-check
 * against. With no servers configured, skills that call tools are refused.
 */
const importCommand = defineCommand({
  meta: {
    name: "import",
    description:
      "Save the skill folders of DIR as new versions (checked against the configured servers' tools)",
  },
  args: { dir: { type: "positional", required: true, description: "Folder of skill folders" }, ...configArg },
  async run({ args }) {
    const dir = resolve(args.dir);
    const folders = readSkillFolders(dir);
    const gateway = await openGateway({ sandbox: false, configPath: args.config });
    try {
      const store = gateway.store;
      if (!store) throw new CliError("the gateway started without a store");
      const toolsTree = renderTree(gateway.catalog.tools());
      const own = new Map(folders.map((skill) => [skill.name, skill.declaration]));
      const saved = await importSkills(store.skills, dir, {
        declare: async (skill) => {
          // Python skills are read, not run: the gateway process never runs Python.
          if (skill.language === "python") return declarePythonSkill(skill.name, skill.code).declaration;
          const checked = await declareSkill({
            name: skill.name,
            code: skill.code,
            toolsTree,
            // Shared skills only: imported ones are shared, and may import only what every session sees.
            skillDeclaration: (name) => own.get(name) ?? gateway.skills.typeScriptDeclaration(name),
          });
          return checked.declaration;
        },
      });
      for (const skill of saved) process.stdout.write(`${skill.name} v${skill.version}\n`);
      process.stderr.write(`imported ${saved.length} skills from ${dir}\n`);
    } finally {
      await gateway.close();
    }
  },
});

export const skillsCommand = defineCommand({
  meta: COMMAND_META.skills,
  subCommands: { list, show, rm, export: exportCommand, import: importCommand },
});
