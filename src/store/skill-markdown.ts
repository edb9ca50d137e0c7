/**
 * `SKILL.md`: YAML front matter (`name`, `description`) and the full
 * description as the body, the layout agent skills use elsewhere. Values are
 * written as JSON strings, which YAML reads as double-quoted scalars.
 */
export function renderSkillMarkdown(name: string, description: string): string {
  const summary = description.trim().split("\n", 1)[0] ?? "";
  return `---\nname: ${JSON.stringify(name)}\ndescription: ${JSON.stringify(summary)}\n---\n\n${description.trim()}\n`;
}

export interface SkillMarkdown {
  fields: Record<string, string>;
  body: string;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/** Reads front matter `key: value` lines (plain or quoted values) and the body; a file without front matter is all body. */
export function parseSkillMarkdown(text: string): SkillMarkdown {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { fields: {}, body: text.trim() };
  const fields: Record<string, string> = {};
  for (const line of (match[1] ?? "").split(/\r?\n/)) {
    const pair = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
    if (!pair?.[1]) continue;
    fields[pair[1]] = unquote((pair[2] ?? "").trim());
  }
  return { fields, body: (match[2] ?? "").trim() };
}

function unquote(value: string): string {
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === "string") return parsed;
    } catch {
      // Not JSON-compatible YAML escaping: fall through to the raw inner text.
    }
    return value.slice(1, -1);
  }
  if (value.startsWith("'") && value.endsWith("'") && value.length >= 2)
    return value.slice(1, -1).replaceAll("''", "'");
  return value;
}
