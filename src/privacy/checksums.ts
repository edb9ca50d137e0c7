/**
 * Check digits and issuing rules that tell real identifiers from numbers that
 * merely look like them. Each takes the bare identifier (no spaces or dashes).
 */

/** Luhn (mod 10), the check digit of payment card numbers. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Card lengths by issuer prefix (IIN ranges of the major networks). */
const CARD_NETWORKS: ReadonlyArray<{ prefix: RegExp; lengths: readonly number[] }> = [
  { prefix: /^4/, lengths: [13, 16, 19] }, // Visa
  { prefix: /^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/, lengths: [16] }, // Mastercard
  { prefix: /^3[47]/, lengths: [15] }, // American Express
  { prefix: /^(6011|65|64[4-9])/, lengths: [16, 19] }, // Discover
  { prefix: /^35(2[89]|[3-8]\d)/, lengths: [16, 17, 18, 19] }, // JCB
  { prefix: /^(30[0-5]|3095|36|3[89])/, lengths: [14, 16, 19] }, // Diners Club
  { prefix: /^62/, lengths: [16, 17, 18, 19] }, // UnionPay
  { prefix: /^(5018|5020|5038|5893|6304|6759|676[1-3])/, lengths: [12, 13, 14, 15, 16, 17, 18, 19] }, // Maestro
];

/** A payment card number: a known network's prefix and length, and a valid Luhn digit. */
export function paymentCardValid(digits: string): boolean {
  const network = CARD_NETWORKS.find((candidate) => candidate.prefix.test(digits));
  return (network?.lengths.includes(digits.length) ?? false) && luhnValid(digits);
}

/** IBAN length per country code (SWIFT IBAN registry), as "CCnn" pairs. */
const IBAN_REGISTRY =
  "AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18 DO28 " +
  "EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 " +
  "JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 NL18 " +
  "NO15 OM23 PK24 PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 SV28 " +
  "TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30";
const IBAN_LENGTHS: ReadonlyMap<string, number> = new Map(
  IBAN_REGISTRY.split(" ").map((entry) => [entry.slice(0, 2), Number(entry.slice(2))]),
);

/** The registered IBAN length of a country, or undefined when it has no IBAN. */
export function ibanLength(country: string): number | undefined {
  return IBAN_LENGTHS.get(country);
}

/** An IBAN: a registered country, its exact length, and ISO 7064 mod 97-10 remainder 1. */
export function ibanValid(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  if (IBAN_LENGTHS.get(iban.slice(0, 2)) !== iban.length) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const code = char.charCodeAt(0);
    // Letters count as two digits: A=10 ... Z=35.
    const value = code >= 65 ? code - 55 : code - 48;
    remainder = (remainder * (value >= 10 ? 100 : 10) + value) % 97;
  }
  return remainder === 1;
}

/** SSNs the SSA lists as never valid although well formed (advertising and test numbers). */
const RETIRED_SSNS = new Set(["078051120", "219099999", "457555462"]);

/**
 * A US Social Security number under the SSA's rules: area 001–899 but not 666,
 * group 01–99, serial 0001–9999.
 */
export function ssnValid(area: string, group: string, serial: string): boolean {
  const areaNumber = Number(area);
  if (areaNumber === 0 || areaNumber === 666 || areaNumber >= 900) return false;
  if (group === "00" || serial === "0000") return false;
  return !RETIRED_SSNS.has(area + group + serial);
}
