import { isIPv6 } from "node:net";
import { type CountryCode, findPhoneNumbersInText, parsePhoneNumberFromString } from "libphonenumber-js/max";
import { nextPhoneCandidate } from "./candidate-scan.ts";
import { ibanLength, ibanValid, paymentCardValid, ssnValid } from "./checksums.ts";
import type { MatchList } from "./match-list.ts";
import { phoneSpanFeasible } from "./phone-feasibility.ts";

/** A piece of personal data found in a text. */
export interface PiiMatch {
  /** Token label: EMAIL, PHONE, CARD, IBAN, SSN, IP, or a custom pattern's name. */
  kind: string;
  start: number;
  end: number;
  value: string;
  /** Identity for stable tokens: the same person's e-mail in other case, or a phone in another format, shares it. */
  key: string;
}

export type BuiltinPiiKind = "EMAIL" | "PHONE" | "CARD" | "IBAN" | "SSN" | "IP";

export const BUILTIN_PII_KINDS: readonly BuiltinPiiKind[] = ["EMAIL", "PHONE", "CARD", "IBAN", "SSN", "IP"];

/**
 * The longest text any built-in kind matches (an e-mail: 65 + 1 + 8 × 64 + 24),
 * rounded up: chunked scans overlap by this much so no match is cut.
 */
export const MAX_MATCH_CHARS = 640;

/**
 * Phone numbers by libphonenumber-js (max metadata, "valid" leniency): numbers
 * written with a + country code anywhere, national ones in `region`'s format.
 * A bare run of digits without + is not taken as a phone: it is far more often
 * an id, an amount or a timestamp than a national number.
 */
export function findPhones(text: string, region: CountryCode | undefined, into: MatchList): void {
  // MIN_PHONE_DIGITS digits in the whole text, or none of it can be a phone.
  if (!SEVEN_DIGITS.test(text)) return;
  const cache = spanCacheFor(region);
  // libphonenumber scans ~0.3 MB/s on digit-heavy text; it only sees the spans that could be phones.
  const span = { start: 0, end: 0 };
  let lastSpan = "";
  let lastHits = NO_HITS;
  for (let from = 0; nextPhoneCandidate(text, from, span); from = span.end) {
    const { start, end } = span;
    // A span like the one before (digit tables, repeated lines) is compared in place, not cut out.
    let hits: readonly SpanHit[];
    if (end - start === lastSpan.length && text.startsWith(lastSpan, start)) {
      hits = lastHits;
    } else {
      const value = text.slice(start, end);
      // Most spans cannot hold a valid number at all: a linear test spares the library and the cache.
      if (!phoneSpanFeasible(text, region, start, end) || !hasDigitsIn(text, start, end, MIN_PHONE_DIGITS)) {
        hits = NO_HITS;
      } else {
        // Repeated possible spans are looked at once.
        const cached = cache.get(value);
        hits = cached ?? findInSpan(value, region);
        if (cached === undefined) {
          if (cache.size >= SPAN_CACHE_ENTRIES) cache.clear();
          cache.set(value, hits);
        }
      }
      lastSpan = value;
      lastHits = hits;
    }
    for (const hit of hits)
      into.add("PHONE", start + hit.start, start + hit.start + hit.value.length, hit.key);
  }
}

interface SpanHit {
  start: number;
  value: string;
  key: string;
}

/** Region -> span -> its phones. */
const spanCaches = new Map<string, Map<string, readonly SpanHit[]>>();
const SPAN_CACHE_ENTRIES = 4096;
const NO_HITS: readonly SpanHit[] = [];

function spanCacheFor(region: CountryCode | undefined): Map<string, readonly SpanHit[]> {
  let cache = spanCaches.get(region ?? "");
  if (!cache) {
    cache = new Map();
    spanCaches.set(region ?? "", cache);
  }
  return cache;
}

function findInSpan(span: string, region: CountryCode | undefined): readonly SpanHit[] {
  // The caller has checked the digit count and feasibility.
  if (NOT_A_PHONE.test(span)) return NO_HITS;
  // Fast path (~10 µs): the whole span is one valid number, as it is in most data.
  const whole = span.startsWith("+") || /\D/.test(span) ? parseWhole(span, region) : undefined;
  if (whole) return [{ start: 0, value: span, key: whole }];
  // Otherwise let the matcher (~50–100 µs) find numbers inside the span.
  const hits: SpanHit[] = [];
  for (const hit of findPhoneNumbersInText(span, region ? { defaultCountry: region } : {})) {
    const value = span.slice(hit.startsAt, hit.endsAt);
    if (!value.startsWith("+") && /^\d+$/.test(value)) continue;
    hits.push({ start: hit.startsAt, value, key: hit.number.number });
  }
  return hits;
}

/** The E.164 form of `span` when all of it is one valid phone number. */
function parseWhole(span: string, region: CountryCode | undefined): string | undefined {
  const parsed = parsePhoneNumberFromString(span, {
    ...(region && { defaultCountry: region }),
    extract: false,
  });
  return parsed?.isValid() ? parsed.number : undefined;
}

/** The shortest phone numbers in service have 7 digits (with a country code, more). */
const MIN_PHONE_DIGITS = 7;
/**
 * Shapes that are never phone numbers, rejected before the (~50 µs per call)
 * library: bare digit runs without + (ids, amounts), dates, decimals, versions.
 */
const NOT_A_PHONE = /^(?:\d+|\d{4}-\d\d?-\d\d?|\d\d?[/.-]\d\d?[/.-]\d{2,4}|\d+\.\d+|\d{1,2}(?:\.\d+){2,})$/;

/** 13–19 digits, contiguous or in groups of 4 (4-6-5 / 4-6-4 for Amex and Diners), never inside a longer number. */
const CARD =
  /(?<![\w.,-])(?:\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?:\1\d{1,3})?|\d{4}([ -])\d{6}\2\d{4,5}|\d{13,19})(?![\w-]|[.,]\d)/g;

/** CARD, tried only where a pre-scan saw a card start. */
const CARD_AT = new RegExp(CARD.source, "y");

export function findCards(text: string, into: MatchList): void {
  CARD_START.lastIndex = 0;
  for (let start = CARD_START.exec(text); start !== null; start = CARD_START.exec(text)) {
    CARD_AT.lastIndex = start.index;
    const match = CARD_AT.exec(text);
    if (!match) {
      CARD_START.lastIndex = start.index + 1;
      continue;
    }
    const digits = match[0].replace(/[ -]/g, "");
    if (paymentCardValid(digits)) into.add("CARD", match.index, match.index + match[0].length, digits);
    CARD_START.lastIndex = match.index + match[0].length;
  }
}

/** Where a card can start: a run of exactly 4 digits and a separator, or of 13–19 digits, after no [\w.,-]. */
const CARD_START = /(?<![\w.,-])\d{4}(?:[ -]\d|\d{9,15}(?!\d))/g;

/** Country code, check digits, then groups of 4 (spaces optional); length and mod-97 decide. */
const IBAN_CANDIDATE = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){8,30}/g;

export function findIbans(text: string, into: MatchList): void {
  for (const match of text.matchAll(IBAN_CANDIDATE)) {
    const length = ibanLength(match[0].slice(0, 2));
    if (length === undefined) continue;
    // Take exactly the country's length of characters; the IBAN must end there.
    let compact = "";
    let end = 0;
    for (const char of match[0]) {
      end++;
      if (char === " ") continue;
      compact += char;
      if (compact.length === length) break;
    }
    const after = text.charAt(match.index + end);
    if (compact.length !== length || /[A-Za-z0-9]/.test(after) || !ibanValid(compact)) continue;
    into.add("IBAN", match.index, match.index + end, compact);
  }
}

/** US SSNs written AAA-GG-SSSS; nine bare digits are indistinguishable from ids and are left alone. */
const SSN = /(?<![\w-])(\d{3})-(\d{2})-(\d{4})(?![\w-])/g;

export function findSsns(text: string, into: MatchList): void {
  if (!text.includes("-")) return;
  for (const match of text.matchAll(SSN)) {
    const [value, area = "", group = "", serial = ""] = match;
    if (ssnValid(area, group, serial))
      into.add("SSN", match.index, match.index + value.length, area + group + serial);
  }
}

const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
/** Four octets, not part of a longer dotted number (a version such as 1.2.3.4.5) nor after a letter (v1.2.3.4). */
const IPV4 = new RegExp(`(?<![\\w.])${OCTET}(?:\\.${OCTET}){3}(?![\\w]|\\.\\d)`, "g");
/** Hex groups with colons; node:net decides what is an address. */
const IPV6_CANDIDATE =
  /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?(?![\w:]|\.\d)/g;

/**
 * IPv4 and IPv6 addresses. Addresses that identify no one are left alone:
 * unspecified, loopback, multicast and reserved (0.x, 127.x, 224.x and above,
 * ::, ::1). Private ranges are kept: they map a network.
 */
export function findIps(text: string, into: MatchList): void {
  if (text.includes(".")) {
    for (const match of text.matchAll(IPV4)) {
      const first = Number(match[0].slice(0, match[0].indexOf(".")));
      if (first === 0 || first === 127 || first >= 224) continue;
      into.add("IP", match.index, match.index + match[0].length);
    }
  }
  // An address has two colons at most five characters apart and starts at most four before the first:
  // only there is the pattern tried (JSON has a colon per key, rarely two so close).
  let lastEnd = 0;
  for (let colon = text.indexOf(":"); colon !== -1; ) {
    const next = text.indexOf(":", colon + 1);
    if (next !== -1 && next - colon <= 5) {
      for (let at = Math.max(lastEnd, colon - 4); at <= colon; at++) {
        IPV6_AT.lastIndex = at;
        const match = IPV6_AT.exec(text);
        if (!match) continue;
        const value = match[0];
        lastEnd = at + value.length;
        const hexDigits = value.replace(/[^0-9A-Fa-f]/g, "").length;
        // "a::b" or "de:ad::" in prose are valid syntax but not addresses anyone writes.
        if (isIPv6(value) && hexDigits >= 5 && value !== "::1") {
          into.add("IP", at, at + value.length, value.toLowerCase());
        }
        break;
      }
    }
    colon = next;
  }
}

const IPV6_AT = new RegExp(IPV6_CANDIDATE.source, "y");

/** At least seven digits from the start: anchored, so the engine tries one position (linear), natively. */
const SEVEN_DIGITS = /^(?:[^0-9]*[0-9]){7}/;

/** Whether text[from, to) has at least `wanted` digits. */
function hasDigitsIn(text: string, from: number, to: number, wanted: number): boolean {
  let digits = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57 && ++digits >= wanted) return true;
  }
  return false;
}
