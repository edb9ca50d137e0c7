/** Punycode (RFC 3492) of one host label, for hosts with non-ASCII letters (`xn--` labels). */
const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;

function adapt(delta: number, points: number, first: boolean): number {
  let value = first ? Math.floor(delta / DAMP) : delta >> 1;
  value += Math.floor(value / points);
  let k = 0;
  while (value > ((BASE - T_MIN) * T_MAX) >> 1) {
    value = Math.floor(value / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * value) / (value + SKEW));
}

function digit(value: number): string {
  return String.fromCharCode(value + 22 + 75 * (value < 26 ? 1 : 0));
}

export function punycodeEncode(label: string): string {
  const codes = Array.from(label, (char) => char.codePointAt(0) as number);
  let output = codes
    .filter((code) => code < 0x80)
    .map((code) => String.fromCharCode(code))
    .join("");
  const basic = output.length;
  let handled = basic;
  if (basic > 0) output += "-";
  let n = 0x80;
  let delta = 0;
  let bias = 72;
  while (handled < codes.length) {
    let next = Number.MAX_SAFE_INTEGER;
    for (const code of codes) if (code >= n && code < next) next = code;
    delta += (next - n) * (handled + 1);
    n = next;
    for (const code of codes) {
      if (code < n) delta += 1;
      if (code !== n) continue;
      let q = delta;
      for (let k = BASE; ; k += BASE) {
        const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
        if (q < t) break;
        output += digit(t + ((q - t) % (BASE - t)));
        q = Math.floor((q - t) / (BASE - t));
      }
      output += digit(q);
      bias = adapt(delta, handled + 1, handled === basic);
      delta = 0;
      handled += 1;
    }
    delta += 1;
    n += 1;
  }
  return output;
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) > 0x7f) return false;
  return true;
}

/** A host's labels in ASCII: lowercased (and NFC) labels with non-ASCII letters as `xn--` Punycode. */
export function hostToAscii(host: string): string {
  return host
    .normalize("NFC")
    .toLowerCase()
    .split(".")
    .map((label) => (isAscii(label) ? label : `xn--${punycodeEncode(label)}`))
    .join(".");
}
