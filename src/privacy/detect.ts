import type { CountryCode } from "libphonenumber-js/max";
import {
  BUILTIN_PII_KINDS,
  type BuiltinPiiKind,
  findCards,
  findEmails,
  findIbans,
  findIps,
  findPhones,
  findSsns,
  type PiiMatch,
} from "./detectors.ts";
import { PrivacyError } from "./errors.ts";

/** National phone numbers are read in this region's format; numbers with a + are found anywhere. */
export const DEFAULT_PHONE_REGION: CountryCode = "US";

/** A custom pattern from `toolscript.privacy.patterns`. */
export interface PiiPattern {
  /** Token label, e.g. `EMPLOYEE_ID` gives `[EMPLOYEE_ID_1]`. */
  name: string;
  regex: string;
  flags?: string | undefined;
}

export interface PiiDetectorOptions {
  /** Region for national phone formats (ISO 3166 alpha-2); `null` finds only +international numbers. */
  phoneRegion?: CountryCode | null | undefined;
  patterns?: readonly PiiPattern[] | undefined;
  /** Built-in kinds to look for; all by default. */
  kinds?: readonly BuiltinPiiKind[] | undefined;
}

export interface PiiDetector {
  /** Non-overlapping matches in text order. Text that is already a token (`[EMAIL_1]`) is never matched. */
  detect(text: string): PiiMatch[];
}

/** Text shaped like a vault token: `[KIND_n]`. */
export const TOKEN_PATTERN = /\[[A-Z][A-Z0-9_]*_\d+\]/;
/** Global copy for scanning; private so no caller's test()/exec() can move its lastIndex. */
export function tokenScanner(): RegExp {
  return new RegExp(TOKEN_PATTERN.source, "g");
}

/**
 * Where two findings overlap, the first kind here wins: custom patterns (the
 * user's intent), then kinds checked by checksum or strict syntax, phones last.
 */
const PRIORITY: readonly BuiltinPiiKind[] = ["EMAIL", "IBAN", "CARD", "SSN", "IP", "PHONE"];

export function createPiiDetector(options: PiiDetectorOptions = {}): PiiDetector {
  const region = options.phoneRegion === null ? undefined : (options.phoneRegion ?? DEFAULT_PHONE_REGION);
  const kinds = new Set(options.kinds ?? BUILTIN_PII_KINDS);
  const custom = (options.patterns ?? []).map(compilePattern);
  const finders: Record<BuiltinPiiKind, (text: string) => PiiMatch[]> = {
    EMAIL: findEmails,
    IBAN: findIbans,
    CARD: findCards,
    SSN: findSsns,
    IP: findIps,
    PHONE: (text) => findPhones(text, region),
  };
  return {
    detect(text) {
      // The first kind with findings lends its (fresh) array; later kinds are appended to it.
      let found: PiiMatch[] = NONE;
      const add = (matches: PiiMatch[]) => {
        if (found === NONE) found = matches;
        else append(found, matches);
      };
      for (const pattern of custom) add(findCustom(text, pattern));
      // Every built-in kind needs a digit, an "@" or a ":"; most strings in tool data (names, labels) have none.
      if (MAY_HOLD_PII.test(text)) {
        for (const kind of PRIORITY) if (kinds.has(kind)) add(finders[kind](text));
      }
      if (found === NONE) return [];
      const hasTokens = text.includes("[") && TOKEN_PATTERN.test(text);
      // One kind's findings alone are in text order and apart: nothing to settle (the many-match case).
      if (found.length === 0 || (!hasTokens && inOrderApart(found))) return found;
      // One byte per character marks what is claimed: tokens, then findings in priority order.
      const claimed = new Uint8Array(text.length);
      if (hasTokens) {
        for (const token of text.matchAll(tokenScanner()))
          claimed.fill(1, token.index, token.index + token[0].length);
      }
      const accepted: PiiMatch[] = [];
      for (const match of found) {
        if (isClaimed(claimed, match.start, match.end)) continue;
        claimed.fill(1, match.start, match.end);
        accepted.push(match);
      }
      return inOrderApart(accepted) ? accepted : accepted.sort((a, b) => a.start - b.start);
    },
  };
}

/** Whether each match starts at or after the end of the one before: then all are kept, in this order. */
function inOrderApart(matches: readonly PiiMatch[]): boolean {
  let lastEnd = 0;
  for (const match of matches) {
    if (match.start < lastEnd) return false;
    lastEnd = match.end;
  }
  return true;
}

/** A plain loop: a subarray view per match costs more than the few bytes it looks at. */
function isClaimed(claimed: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (claimed[i] === 1) return true;
  return false;
}

/** Placeholder for "no findings yet"; never returned nor written to. */
const NONE: PiiMatch[] = [];

/** One by one: spreading 100k+ matches into push() overflows the stack. */
function append(into: PiiMatch[], from: readonly PiiMatch[]): void {
  for (const match of from) into.push(match);
}

/** A digit, "@" or ":": without one, no built-in kind can match. */
const MAY_HOLD_PII = /[\d@:]/;

interface CompiledPattern {
  kind: string;
  regex: RegExp;
}

function compilePattern(pattern: PiiPattern): CompiledPattern {
  const flags = new Set(`${pattern.flags ?? ""}g`.replace("y", ""));
  try {
    return { kind: pattern.name.toUpperCase(), regex: new RegExp(pattern.regex, [...flags].join("")) };
  } catch (error) {
    throw new PrivacyError(
      "privacy.invalid_pattern",
      `privacy pattern "${pattern.name}" is not a valid regular expression`,
      { path: ["toolscript", "privacy", "patterns", pattern.name] },
      { cause: error },
    );
  }
}

function findCustom(text: string, pattern: CompiledPattern): PiiMatch[] {
  const matches: PiiMatch[] = [];
  for (const match of text.matchAll(pattern.regex)) {
    // An empty match would place a token between characters; the config schema rejects such patterns.
    if (match[0].length === 0) continue;
    matches.push({
      kind: pattern.kind,
      start: match.index,
      end: match.index + match[0].length,
      value: match[0],
      key: match[0],
    });
  }
  return matches;
}
