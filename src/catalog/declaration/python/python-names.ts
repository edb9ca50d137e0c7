/** Python's hard keywords: none of them can be an attribute after a dot, a parameter or a field in class syntax. */
export const PYTHON_KEYWORDS: ReadonlySet<string> = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
]);

// ASCII only: Python accepts more (NFKC-normalised Unicode), but a name the stub and the
// runtime might normalise differently is safer passed as a dict key.
const ASCII_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether `name` can be written bare in Python: an argument name, an attribute, a class field. */
export function isPythonName(name: string): boolean {
  return ASCII_IDENTIFIER.test(name) && !PYTHON_KEYWORDS.has(name);
}

/**
 * The Python attribute for a catalog identifier (already a valid ASCII JS identifier):
 * itself, or with `_` appended when it is a Python keyword (`from` → `from_`).
 */
export function toPythonName(id: string): string {
  return PYTHON_KEYWORDS.has(id) ? `${id}_` : id;
}

/**
 * Identifier → Python attribute, for the servers of a catalog or the tools of one server:
 * `toPythonName` of each, unique within `ids`. The Python runtime must expose servers
 * and tools under exactly these names (`tools.<server>.<tool>`), besides the original
 * names by subscript (`tools.everything["get-sum"]`). A keyword whose `_` form is
 * another identifier gets `_2`, `_3`, ...
 */
export function pythonNames(ids: readonly string[]): Map<string, string> {
  const taken = new Set(ids);
  const names = new Map<string, string>();
  for (const id of ids) {
    if (!PYTHON_KEYWORDS.has(id)) {
      names.set(id, id);
      continue;
    }
    let name = `${id}_`;
    for (let n = 2; taken.has(name); n += 1) name = `${id}_${n}`;
    taken.add(name);
    names.set(id, name);
  }
  return names;
}
