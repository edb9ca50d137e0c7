/**
 * A rendered TypeScript type plus what is needed to combine it safely with others:
 * its precedence (for parentheses) and whether it names a generated type alias.
 */
export interface TypeExpr {
  readonly text: string;
  /** How tightly the text binds: union < intersection < primary (keyword, literal, `T[]`, `{...}`). */
  readonly prec: Precedence;
  /** Mentions a generated named type: such text must not be wrapped in a generic alias like `Record`. */
  readonly hasRef: boolean;
  /** A plain object literal `{ ... }`, which can be declared as an interface. */
  readonly isObject: boolean;
  /** Members of a union or intersection, kept to flatten nested ones. */
  readonly parts?: readonly TypeExpr[];
}

export type Precedence = 0 | 1 | 2;
export const PREC_UNION: Precedence = 0;
export const PREC_INTERSECTION: Precedence = 1;
export const PREC_PRIMARY: Precedence = 2;

export function primary(text: string, hasRef = false): TypeExpr {
  return { text, prec: PREC_PRIMARY, hasRef, isObject: false };
}

export function objectLiteral(text: string, hasRef: boolean): TypeExpr {
  return { text, prec: PREC_PRIMARY, hasRef, isObject: true };
}

export const UNKNOWN: TypeExpr = primary("unknown");
export const NEVER: TypeExpr = primary("never");
export const NULL: TypeExpr = primary("null");

function wrap(expr: TypeExpr, minPrec: Precedence): string {
  return expr.prec < minPrec ? `(${expr.text})` : expr.text;
}

function combine(
  parts: readonly TypeExpr[],
  prec: Precedence,
  absorbing: string,
  neutral: string,
  separator: string,
): TypeExpr {
  const flat: TypeExpr[] = [];
  const seen = new Set<string>();
  for (const part of parts) {
    for (const member of part.prec === prec && part.parts ? part.parts : [part]) {
      if (member.text === absorbing) return member;
      if (member.text === neutral || seen.has(member.text)) continue;
      seen.add(member.text);
      flat.push(member);
    }
  }
  if (flat.length === 0) return neutral === "never" ? NEVER : UNKNOWN;
  if (flat.length === 1) return flat[0]!;
  return {
    text: flat.map((member) => wrap(member, (prec + 1) as Precedence)).join(separator),
    prec,
    hasRef: flat.some((member) => member.hasRef),
    isObject: false,
    parts: flat,
  };
}

/** `A | B`, flattened and deduplicated; `unknown` absorbs everything, `never` disappears. */
export function unionOf(parts: readonly TypeExpr[]): TypeExpr {
  return combine(parts, PREC_UNION, "unknown", "never", " | ");
}

/** `A & B`, flattened and deduplicated; `never` absorbs everything, `unknown` disappears. */
export function intersectionOf(parts: readonly TypeExpr[]): TypeExpr {
  return combine(parts, PREC_INTERSECTION, "never", "unknown", " & ");
}

export function arrayOf(element: TypeExpr): TypeExpr {
  return primary(`${wrap(element, PREC_PRIMARY)}[]`, element.hasRef);
}
