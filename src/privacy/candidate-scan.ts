/**
 * A hand-written scanner that finds exactly what the phone candidate regex
 * would: on digit-heavy text the regex tries its leading lookbehind at every
 * position; here a cheap regex skips to the possible starts and the span is
 * measured with charCodeAt, without a match object per candidate.
 */

/** Where a scan found a candidate: text[start, end). Reused, read before the next call. */
export interface CandidateSpan {
  start: number;
  end: number;
}

const ZERO = 48;
const NINE = 57;
const PLUS = 43;
const OPEN = 40;

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

/** `[\d ().\-/\u00a0]`: what a phone number is written with. */
function isPhoneChar(code: number): boolean {
  return (
    (code >= ZERO && code <= NINE) ||
    code === 32 ||
    code === 40 ||
    code === 41 ||
    code === 46 ||
    code === 45 ||
    code === 47 ||
    code === 0xa0
  );
}

/**
 * The next match of `/(?<![\w+])(?:\+|\(\+?)?\d[\d ().\-/\u00a0]{5,32}\d/g`
 * from `from` on, written into `out`; false when there is none.
 */
export function nextPhoneCandidate(text: string, from: number, out: CandidateSpan): boolean {
  const length = text.length;
  // The regex engine skips text that cannot start a candidate far faster than a loop here.
  PHONE_START.lastIndex = from > 0 ? from - 1 : 0;
  let i = from === 0 && isPhoneStart(text.charCodeAt(0)) ? 0 : -1;
  for (; i !== -1 || PHONE_START.test(text); i = -1) {
    if (i === -1) i = PHONE_START.lastIndex - 1;
    // Next try one position on, as the regex would after failing here.
    PHONE_START.lastIndex = i;
    const code = text.charCodeAt(i);
    const first =
      code === PLUS ? i + 1 : code === OPEN ? (text.charCodeAt(i + 1) === PLUS ? i + 2 : i + 1) : i;
    // "(+" without a digit after it: the regex backtracks to "(" alone, which needs the digit at once.
    if (!isDigit(text.charCodeAt(first))) continue;
    // The phone characters after the first digit (at most 33 matter), then the last digit among the first 33.
    const limit = Math.min(length, first + 34);
    let runEnd = first + 1;
    while (runEnd < limit && isPhoneChar(text.charCodeAt(runEnd))) runEnd++;
    let last = Math.min(runEnd - 1, first + 33);
    while (last >= first + 6 && !isDigit(text.charCodeAt(last))) last--;
    if (last < first + 6) continue;
    out.start = i;
    out.end = last + 1;
    return true;
  }
  return false;
}

/** A character that may start a phone candidate, after one that may come before it (`(?<![\w+])`). */
const PHONE_START = /[^\w+][\d+(]/g;

function isPhoneStart(code: number): boolean {
  return isDigit(code) || code === PLUS || code === OPEN;
}
