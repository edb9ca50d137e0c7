/**
 * `${VAR}` expansion for config strings, following the syntax Claude Code uses in
 * `.mcp.json`:
 * - `${VAR}` → the value of VAR; an unset VAR is an error (an empty one is not).
 * - `${VAR:-default}` → VAR when set and non-empty, else `default` (which has no `}`).
 * - `${env:VAR}` (Cursor's spelling) is the same as `${VAR}`.
 * - `$${` → a literal `${` (the escape); any other `$` is literal, including `$VAR`.
 * VAR is `[A-Za-z_][A-Za-z0-9_]*`; any other `${...}` is reported as malformed.
 */

export type Env = Readonly<Record<string, string | undefined>>;

export type InterpolationResult =
  | { ok: true; value: string }
  | { ok: false; value: string; missing: string[]; malformed: string[] };

const REFERENCE = /\$\$\{|\$\{([^}]*)\}|\$\{/g;
const NAME_WITH_DEFAULT = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?$/;

/**
 * Expands references in `text`. On failure `value` still holds a best-effort expansion
 * (unresolved references left as written), for configs that are not used (disabled servers).
 */
export function interpolate(text: string, env: Env): InterpolationResult {
  const missing: string[] = [];
  const malformed: string[] = [];
  const value = text.replace(REFERENCE, (match: string, body: string | undefined) => {
    if (match === "$${") return "${";
    const parsed = body === undefined ? null : NAME_WITH_DEFAULT.exec(body);
    if (!parsed) {
      malformed.push(match);
      return match;
    }
    const name = parsed[1] ?? "";
    const fallback = parsed[2];
    const current = env[name];
    if (fallback !== undefined) return current === undefined || current === "" ? fallback : current;
    if (current === undefined) {
      if (!missing.includes(name)) missing.push(name);
      return match;
    }
    return current;
  });
  return missing.length === 0 && malformed.length === 0
    ? { ok: true, value }
    : { ok: false, value, missing, malformed };
}

/** Human messages for a failed interpolation, one per problem. */
export function interpolationMessages(result: InterpolationResult): string[] {
  if (result.ok) return [];
  return [
    ...result.missing.map((name) => `environment variable ${name} is not set`),
    ...result.malformed.map(
      (ref) =>
        `malformed variable reference ${JSON.stringify(ref)} (use \${NAME} or \${NAME:-default}; $\${ for a literal)`,
    ),
  ];
}
