import { type CountryCode, Metadata } from "libphonenumber-js/max";

/**
 * A cheap necessary condition for libphonenumber-js to find a valid number in
 * a phone-shaped span, so the library (~10–100 µs a call) only sees spans that
 * could hold one. libphonenumber's matcher tries a fixed set of substrings of
 * a span (the whole, and pieces cut at "/", "(", " -", dots and spaces); a
 * valid number's digit count lies within bounds its metadata fixes. When no
 * substring the matcher would try has a digit count within bounds, the span
 * holds no number. Digit groups such as "12345 12345 …" or "1-2-3-4 …" fail
 * this test in O(span length) instead of costing a library call each.
 * `from`/`to` test text[from, to) without cutting it out.
 */
export function phoneSpanFeasible(
  text: string,
  region: CountryCode | undefined,
  from = 0,
  to: number = text.length,
): boolean {
  const bounds = boundsFor(region);
  const hasPlus = text.charCodeAt(from) === PLUS || text.charCodeAt(from + 1) === PLUS;
  // The whole span is parsed as one number first, whatever its punctuation.
  if (candidateFeasible(text, from, to, hasPlus, bounds, to)) return true;
  // The matcher cuts candidates at runs of more than four punctuation characters; most spans have none.
  if (!sawCut) return false;
  let start = from;
  let punct = 0;
  for (let i = from; i <= to; i++) {
    const code = i < to ? text.charCodeAt(i) : -1;
    if (code >= 48 && code <= 57) {
      if (punct > 4 && i - punct > start) {
        if (candidateFeasible(text, start, i - punct, start === from && hasPlus, bounds, to)) return true;
        start = i;
      }
      punct = 0;
    } else if (code === -1) {
      // Uncut, the one candidate is the whole span, tested above.
      return start > from && candidateFeasible(text, start, to, false, bounds, to);
    } else {
      punct++;
    }
  }
  return false;
}

interface Bounds {
  national: readonly [number, number] | undefined;
  idd: RegExp | undefined;
}

const PLUS = 43;
const SLASH = 47;
const OPEN = 40;
const DOT = 46;
const DASH = 45;

/** Digit counts of valid numbers written with a country code: code (1–3 digits) + national number. */
let intlBounds: readonly [number, number] | undefined;
const regionBounds = new Map<string, Bounds>();

function boundsFor(region: CountryCode | undefined): Bounds {
  const key = region ?? "";
  let bounds = regionBounds.get(key);
  if (bounds) return bounds;
  intlBounds ??= computeIntlBounds();
  bounds = region ? computeRegionBounds(region) : { national: undefined, idd: undefined };
  regionBounds.set(key, bounds);
  return bounds;
}

interface Plan {
  callingCode(): string;
  possibleLengths(): number[] | undefined;
  nationalPrefix(): string | undefined;
  _nationalPrefixForParsing(): string | undefined;
  IDDPrefix(): string | undefined;
}

interface MetadataApi {
  countryCallingCodes(): Record<string, string[]>;
  selectNumberingPlan(country: string, callingCode?: string): void;
  numberingPlan: Plan | undefined;
}

function metadata(): MetadataApi {
  return new Metadata() as unknown as MetadataApi;
}

function computeIntlBounds(): readonly [number, number] {
  const meta = metadata();
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (const [callingCode, countries] of Object.entries(meta.countryCallingCodes())) {
    for (const country of countries) {
      // "001" stands for the non-geographic codes (+800, +882 …), chosen by their calling code.
      meta.selectNumberingPlan(country, country === "001" ? callingCode : undefined);
      const lengths = meta.numberingPlan?.possibleLengths() ?? [];
      for (const length of lengths) {
        min = Math.min(min, callingCode.length + length);
        max = Math.max(max, callingCode.length + length);
      }
    }
  }
  // Widened for any gap in the data: the test stays cheap and only has to be a necessary condition.
  return [Math.min(min - 1, 5), Math.max(max, 17) + 3];
}

function computeRegionBounds(region: CountryCode): Bounds {
  const meta = metadata();
  meta.selectNumberingPlan(region);
  const plan = meta.numberingPlan;
  const lengths = plan?.possibleLengths() ?? [];
  if (!plan || lengths.length === 0) return { national: [1, 40], idd: undefined };
  // Digits libphonenumber may strip before the national number: the national prefix or its
  // parsing pattern (carrier codes included), or the country code written without "+".
  const prefixDigits = plan._nationalPrefixForParsing() ? 8 : (plan.nationalPrefix()?.length ?? 0);
  // Both may be stripped ("11-415-555-2671" is +1 415…); one digit more for safety.
  const slack = prefixDigits + plan.callingCode().length + 1;
  const idd = plan.IDDPrefix();
  return {
    // Local-only numbers (7 digits in the US, of 10) are valid too: three digits shorter is the margin.
    national: [Math.max(1, Math.min(...lengths) - 3), Math.max(...lengths) + slack],
    idd: idd ? new RegExp(`^(?:${idd})`) : undefined,
  };
}

/**
 * The substrings of span[from, to) the matcher tries: the whole; for "/" and
 * " -"/"- " the part before and after the first one; for "(" the part before
 * the first and each "(" up to the next; for dots the part before the first
 * run and each part between; for spaces the part before the first run and
 * each run-free block. `limit` ends the whole span: a piece's " -" may look one character past the piece.
 */
function candidateFeasible(
  span: string,
  from: number,
  to: number,
  plus: boolean,
  bounds: Bounds,
  limit: number,
): boolean {
  const length = to - from;
  // digitsBefore[i]: digits in span[from, from + i), filled as the one pass goes; the buffer is reused.
  if (digitsBefore.length <= length) digitsBefore = new Int32Array(length + 1);
  scanSpan = span;
  scanFrom = from;
  scanBounds = bounds;
  sawCut = false;
  let digits = 0;
  let punct = 0;
  let slashEnd = -1;
  let dashAfter = -1;
  let lastOpen = -1;
  let lastDot = -1;
  let lastSpace = -1;
  // Pieces ending here are tested at once; those ending at the span's end once its digit count is known.
  for (let i = 0; i < length; i++) {
    digitsBefore[i] = digits;
    const code = span.charCodeAt(from + i);
    if (code >= 48 && code <= 57) {
      digits++;
      if (punct > 4) sawCut = true;
      punct = 0;
      continue;
    }
    punct++;
    if (code === SLASH && slashEnd < 0) {
      let end = i;
      while (end < length && span.charCodeAt(from + end) === SLASH) end++;
      slashEnd = end;
      if (pieceFeasible(0, i, plus)) return true;
    } else if (code === OPEN) {
      if (pieceFeasible(Math.max(lastOpen, 0), i, plus && lastOpen <= 0)) return true;
      lastOpen = i;
    } else if (code === DOT) {
      if (pieceFeasible(lastDot + 1, i, plus && lastDot < 0)) return true;
      lastDot = i;
    } else if (isSpace(code)) {
      if (pieceFeasible(lastSpace + 1, i, plus && lastSpace < 0)) return true;
      lastSpace = i;
    }
    if (
      dashAfter < 0 &&
      from + i + 1 < limit &&
      ((code === DASH && isSpace(span.charCodeAt(from + i + 1))) ||
        (isSpace(code) && span.charCodeAt(from + i + 1) === DASH))
    ) {
      dashAfter = i + 1;
      if (pieceFeasible(0, i, plus)) return true;
    }
  }
  digitsBefore[length] = digits;
  if (pieceFeasible(0, length, plus)) return true;
  if (slashEnd >= 0 && pieceFeasible(slashEnd, length, false)) return true;
  if (dashAfter >= 0 && pieceFeasible(dashAfter, length, false)) return true;
  if (lastOpen >= 0 && pieceFeasible(lastOpen, length, plus && lastOpen === 0)) return true;
  if (lastDot >= 0 && pieceFeasible(lastDot + 1, length, false)) return true;
  if (lastSpace >= 0 && pieceFeasible(lastSpace + 1, length, false)) return true;
  return false;
}

/** Whether the last candidate tested had a run of more than four punctuation characters before a digit. */
let sawCut = false;

let digitsBefore = new Int32Array(64);

// The candidate being tested, kept outside the calls (no object per candidate; the test is synchronous).
let scanSpan = "";
let scanFrom = 0;
let scanBounds: Bounds = { national: undefined, idd: undefined };

/** Whether span[from + a, from + b) has a digit count a valid number can have. */
function pieceFeasible(a: number, b: number, plus: boolean): boolean {
  const count = (digitsBefore[b] as number) - (digitsBefore[a] as number);
  const intlMin = intlBounds?.[0] ?? 5;
  const intlMax = intlBounds?.[1] ?? 23;
  if (plus && count >= intlMin && count <= intlMax) return true;
  const national = scanBounds.national;
  if (national && count >= national[0] && count <= national[1]) return true;
  const idd = scanBounds.idd;
  if (idd && count > intlMin && count <= intlMax + MAX_IDD_DIGITS) {
    const prefix = idd.exec(leadingDigits(scanSpan, scanFrom + a, scanFrom + b, MAX_IDD_DIGITS));
    if (prefix && count - prefix[0].length >= intlMin) return true;
  }
  return false;
}

/** The longest international dialling prefix in the metadata ("14880011" in Australia). */
const MAX_IDD_DIGITS = 8;

/** The first `limit` digits of text[from, to), without building the whole digit string. */
function leadingDigits(text: string, from: number, to: number, limit: number): string {
  let digits = "";
  for (let i = from; i < to && digits.length < limit; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) digits += text[i];
  }
  return digits;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 0xa0;
}
