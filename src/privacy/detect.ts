import type { CountryCode } from "libphonenumber-js/max";
import {
  BUILTIN_PII_KINDS,
  type BuiltinPiiKind,
  findCards,
  findIbans,
  findIps,
  findPhones,
  findSsns,
  type PiiMatch,
} from "./detectors.ts";
import { findEmails } from "./email.ts";
import { PrivacyError } from "./errors.ts";
import { MatchList } from "./match-list.ts";

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
  /** `detect` in columns, without a string or object per match: what the vault scans with. */
  scan(text: string): MatchList;
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
  const finders: Record<BuiltinPiiKind, (text: string, into: MatchList) => void> = {
    EMAIL: findEmails,
    IBAN: findIbans,
    CARD: findCards,
    SSN: findSsns,
    IP: findIps,
    PHONE: (text, into) => findPhones(text, region, into),
  };
  const scan = (text: string): MatchList => {
    // Findings in priority order: custom patterns (the user's intent), then the built-in kinds.
    const found = new MatchList();
    for (const pattern of custom) findCustom(text, pattern, found);
    // Every built-in kind needs a digit, an "@" or a ":"; most strings in tool data (names, labels) have none.
    if (MAY_HOLD_PII.test(text)) {
      for (const kind of PRIORITY) if (kinds.has(kind)) finders[kind](text, found);
    }
    if (found.length === 0) return found;
    const hasTokens = text.includes("[") && TOKEN_PATTERN.test(text);
    // Findings already in text order and apart need no settling (the many-match case: one kind).
    if (!hasTokens && found.inOrderApart()) return found;
    // One byte per character marks what is claimed: tokens, then findings in priority order.
    const claimed = new Uint8Array(text.length);
    if (hasTokens) {
      for (const token of text.matchAll(tokenScanner()))
        claimed.fill(1, token.index, token.index + token[0].length);
    }
    const accepted = new MatchList();
    for (let i = 0; i < found.length; i++) {
      const start = found.start(i);
      const end = found.end(i);
      if (isClaimed(claimed, start, end)) continue;
      claimed.fill(1, start, end);
      accepted.addFrom(found, i);
    }
    return accepted.inOrderApart() ? accepted : accepted.sortedByStart();
  };
  return { scan, detect: (text) => scan(text).toMatches(text) };
}

/** A plain loop: a subarray view per match costs more than the few bytes it looks at. */
function isClaimed(claimed: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (claimed[i] === 1) return true;
  return false;
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

function findCustom(text: string, pattern: CompiledPattern, into: MatchList): void {
  for (const match of text.matchAll(pattern.regex)) {
    // An empty match would place a token between characters; the config schema rejects such patterns.
    if (match[0].length === 0) continue;
    into.add(pattern.kind, match.index, match.index + match[0].length);
  }
}
