import { AnalysisError } from "./errors.ts";
import { at, checkRows, type FieldPath, MISSING, parsePath, read } from "./paths.ts";
import { describe, isRecord, put } from "./values.ts";

function checkSelect(select: unknown): FieldPath[] | undefined {
  if (select === null || select === undefined) return undefined;
  if (!Array.isArray(select))
    throw new AnalysisError("select", `expected an array of field names, got ${describe(select)}`);
  const paths = select.map((field, index) => parsePath(field, at("select", index)));
  paths.forEach((path, index) => {
    if (paths.findIndex((other) => other.field === path.field) < index)
      throw new AnalysisError(at("select", index), `${JSON.stringify(path.field)} is selected twice`);
  });
  return paths;
}

function checkRename(rename: unknown, selected: readonly FieldPath[] | undefined): Map<string, string> {
  const names = new Map<string, string>();
  if (rename === null || rename === undefined) return names;
  if (!isRecord(rename))
    throw new AnalysisError("rename", `expected an object of {old name: new name}, got ${describe(rename)}`);
  for (const [from, to] of Object.entries(rename)) {
    if (typeof to !== "string" || to === "")
      throw new AnalysisError(
        at("rename", from),
        `expected the new name (a non-empty string), got ${describe(to)}`,
      );
    if (selected !== undefined && !selected.some((path) => path.field === from))
      throw new AnalysisError(at("rename", from), `${JSON.stringify(from)} is not a selected field`);
    names.set(from, to);
  }
  return names;
}

function renamed(keys: readonly string[], names: ReadonlyMap<string, string>, where: string): string[] {
  const out = keys.map((key) => names.get(key) ?? key);
  out.forEach((name, index) => {
    if (out.indexOf(name) < index)
      throw new AnalysisError(where, `two fields would be named ${JSON.stringify(name)} (check rename)`);
  });
  return out;
}

/**
 * New rows with only the `select`ed fields (field paths, in that order, keyed
 * by the path as written; null where a row lacks one), or every top-level
 * field when `select` is null; then keys renamed by `rename` ({old: new},
 * old being a key of the output). Values are not copied.
 */
export function transform(
  rows: readonly object[],
  select?: readonly string[] | null,
  rename?: Readonly<Record<string, string>> | null,
): Record<string, unknown>[] {
  checkRows(rows);
  const selected = checkSelect(select);
  const names = checkRename(rename, selected);
  if (selected !== undefined) {
    const keys = renamed(
      selected.map((path) => path.field),
      names,
      "rename",
    );
    return rows.map((row) => {
      const out: Record<string, unknown> = {};
      selected.forEach((path, index) => {
        const value = read(row, path);
        put(out, keys[index]!, value === MISSING ? null : value);
      });
      return out;
    });
  }
  return rows.map((row, index) => {
    const from = Object.keys(row);
    const keys = names.size === 0 ? from : renamed(from, names, at("rows", index));
    const out: Record<string, unknown> = {};
    from.forEach((key, position) => {
      put(out, keys[position]!, row[key]);
    });
    return out;
  });
}
