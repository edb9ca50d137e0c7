/**
 * A WHATWG URL parser (the URL Standard's algorithm, without its state
 * machine's rarely met corners): special and opaque schemes, relative
 * references against a base, IPv4 and IPv6 hosts, internationalized hosts,
 * dot segments and percent-encoding of each part.
 */
import { hostToAscii } from "./punycode.ts";
import {
  FRAGMENT_SET,
  PATH_SET,
  percentDecodeBytes,
  percentEncode,
  QUERY_SET,
  SPECIAL_QUERY_SET,
  USERINFO_SET,
  utf8Decode,
} from "./url-encoding.ts";

export interface UrlRecord {
  scheme: string;
  username: string;
  password: string;
  host: string | null;
  port: number | null;
  /** Segments, or one string for an opaque path (`mailto:a@b`). */
  path: string[] | string;
  query: string | null;
  fragment: string | null;
}

export const SPECIAL_PORTS: Record<string, number | null> = {
  ftp: 21,
  file: null,
  http: 80,
  https: 443,
  ws: 80,
  wss: 443,
};

export function isSpecial(scheme: string): boolean {
  return Object.hasOwn(SPECIAL_PORTS, scheme);
}

class InvalidUrl extends Error {}

/** Code points a host may not have (the URL Standard's forbidden host and domain code points). */
const FORBIDDEN_HOST = " #/:<>?@[\\]^|";
const FORBIDDEN_DOMAIN = " #%/:<>?@[\\]^|";

function hasForbidden(text: string, forbidden: string, controls: boolean): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0 || code === 9 || code === 10 || code === 13) return true;
    if (controls && (code < 0x20 || code === 0x7f)) return true;
    if (forbidden.includes(text[index] as string)) return true;
  }
  return false;
}

/** The input without leading and trailing C0 controls and spaces, and without tabs and newlines. */
function cleanInput(input: string): string {
  let start = 0;
  let end = input.length;
  while (start < end && input.charCodeAt(start) <= 0x20) start += 1;
  while (end > start && input.charCodeAt(end - 1) <= 0x20) end -= 1;
  return input.slice(start, end).replace(/[\t\n\r]/g, "");
}

function parseIpv4Number(part: string): number | undefined {
  if (part === "") return undefined;
  let radix = 10;
  let digits = part;
  if (/^0[xX]/.test(digits)) {
    radix = 16;
    digits = digits.slice(2);
  } else if (digits.length > 1 && digits.startsWith("0")) {
    radix = 8;
    digits = digits.slice(1);
  }
  if (digits === "") return 0;
  const valid = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) return undefined;
  return Number.parseInt(digits, radix);
}

/** An IPv4 address in any of its legacy forms, or undefined when the host is not one. */
function parseIpv4(host: string): string | undefined {
  const parts = host.split(".");
  if (parts.at(-1) === "" && parts.length > 1) parts.pop();
  const last = parts.at(-1) ?? "";
  if (!(/^[0-9]+$/.test(last) || /^0[xX][0-9a-fA-F]*$/.test(last))) return undefined;
  if (parts.length > 4) throw new InvalidUrl();
  const numbers = parts.map(parseIpv4Number);
  if (numbers.some((n) => n === undefined)) throw new InvalidUrl();
  const values = numbers as number[];
  if (values.slice(0, -1).some((n) => n > 255)) throw new InvalidUrl();
  const tail = values.at(-1) as number;
  if (tail >= 256 ** (5 - values.length)) throw new InvalidUrl();
  let address = tail;
  values.slice(0, -1).forEach((n, index) => {
    address += n * 256 ** (3 - index);
  });
  const bytes = [address >>> 24, (address >>> 16) & 255, (address >>> 8) & 255, address & 255];
  return bytes.join(".");
}

/** An IPv6 address (inside the brackets) in its shortest form. */
function parseIpv6(text: string): string {
  let pieces: number[] = [];
  let compress: number | undefined;
  let rest = text;
  if (rest.startsWith("::")) {
    compress = 0;
    rest = rest.slice(2);
  }
  const groups = rest === "" ? [] : rest.split(":");
  for (let index = 0; index < groups.length; index += 1) {
    const group = groups[index] as string;
    if (group === "") {
      if (compress !== undefined) throw new InvalidUrl();
      compress = pieces.length;
      continue;
    }
    if (group.includes(".") && index === groups.length - 1) {
      const v4 = parseIpv4(group);
      if (v4 === undefined || !/^\d+\.\d+\.\d+\.\d+$/.test(group)) throw new InvalidUrl();
      const [a, b, c, d] = v4.split(".").map(Number) as [number, number, number, number];
      pieces.push((a << 8) | b, (c << 8) | d);
      continue;
    }
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) throw new InvalidUrl();
    pieces.push(Number.parseInt(group, 16));
  }
  if (compress !== undefined) {
    if (pieces.length > 7) throw new InvalidUrl();
    pieces = [
      ...pieces.slice(0, compress),
      ...new Array(8 - pieces.length).fill(0),
      ...pieces.slice(compress),
    ];
  }
  if (pieces.length !== 8) throw new InvalidUrl();
  // The first longest run of two or more zero pieces is written as "::".
  let bestStart = -1;
  let bestLength = 1;
  for (let index = 0; index < 8; ) {
    if (pieces[index] !== 0) {
      index += 1;
      continue;
    }
    let end = index;
    while (end < 8 && pieces[end] === 0) end += 1;
    if (end - index > bestLength) {
      bestStart = index;
      bestLength = end - index;
    }
    index = end;
  }
  let out = "";
  for (let index = 0; index < 8; index += 1) {
    if (index === bestStart) {
      out += index === 0 ? "::" : ":";
      index += bestLength - 1;
      continue;
    }
    out += (pieces[index] as number).toString(16) + (index < 7 ? ":" : "");
  }
  return `[${out}]`;
}

export function parseHost(input: string, special: boolean): string {
  if (input.startsWith("[")) {
    if (!input.endsWith("]")) throw new InvalidUrl();
    return parseIpv6(input.slice(1, -1));
  }
  if (!special) {
    if (hasForbidden(input, FORBIDDEN_HOST, false)) throw new InvalidUrl();
    return percentEncode(input, "");
  }
  const domain = hostToAscii(utf8Decode(percentDecodeBytes(input)));
  if (domain === "" || hasForbidden(domain, FORBIDDEN_DOMAIN, true)) throw new InvalidUrl();
  return parseIpv4(domain) ?? domain;
}

function isSingleDot(segment: string): boolean {
  return segment === "." || segment.toLowerCase() === "%2e";
}

function isDoubleDot(segment: string): boolean {
  return /^(\.|%2e)(\.|%2e)$/i.test(segment);
}

function isWindowsLetter(segment: string): boolean {
  return /^[A-Za-z][:|]$/.test(segment);
}

/** Appends a path's segments to `path`, resolving dot segments. */
function appendPath(path: string[], input: string, scheme: string): void {
  const special = isSpecial(scheme);
  const segments = input.split(special ? /[/\\]/ : "/");
  segments.forEach((raw, index) => {
    const last = index === segments.length - 1;
    if (isDoubleDot(raw)) {
      if (!(scheme === "file" && path.length === 1 && isWindowsLetter(path[0] as string))) path.pop();
      if (last) path.push("");
    } else if (isSingleDot(raw)) {
      if (last) path.push("");
    } else {
      let segment = percentEncode(raw, PATH_SET);
      if (scheme === "file" && path.length === 0 && isWindowsLetter(segment)) segment = `${segment[0]}:`;
      path.push(segment);
    }
  });
}

function splitSuffix(
  rest: string,
  special: boolean,
): { body: string; query: string | null; fragment: string | null } {
  let body = rest;
  let fragment: string | null = null;
  const hash = body.indexOf("#");
  if (hash >= 0) {
    fragment = percentEncode(body.slice(hash + 1), FRAGMENT_SET);
    body = body.slice(0, hash);
  }
  let query: string | null = null;
  const question = body.indexOf("?");
  if (question >= 0) {
    query = percentEncode(body.slice(question + 1), special ? SPECIAL_QUERY_SET : QUERY_SET);
    body = body.slice(0, question);
  }
  return { body, query, fragment };
}

/** `//userinfo@host:port/path` (slashes already removed): the authority and the path after it. */
function parseAuthority(url: UrlRecord, rest: string): void {
  const special = isSpecial(url.scheme);
  const end = rest.search(special ? /[/\\]/ : /\//);
  let authority = end < 0 ? rest : rest.slice(0, end);
  const path = end < 0 ? "" : rest.slice(end);
  const at = authority.lastIndexOf("@");
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(":");
    url.username = percentEncode(colon < 0 ? userinfo : userinfo.slice(0, colon), USERINFO_SET);
    url.password = colon < 0 ? "" : percentEncode(userinfo.slice(colon + 1), USERINFO_SET);
    authority = authority.slice(at + 1);
  }
  const portAt = authority.startsWith("[")
    ? authority.indexOf(":", authority.indexOf("]"))
    : authority.lastIndexOf(":");
  const hostText = portAt < 0 ? authority : authority.slice(0, portAt);
  const portText = portAt < 0 ? "" : authority.slice(portAt + 1);
  if (portText !== "") {
    if (!/^[0-9]+$/.test(portText)) throw new InvalidUrl();
    const port = Number(portText);
    if (port > 65535) throw new InvalidUrl();
    url.port = port === SPECIAL_PORTS[url.scheme] ? null : port;
  }
  if (url.scheme === "file") {
    const host = hostText === "" ? "" : parseHost(hostText, true);
    url.host = host === "localhost" ? "" : host;
  } else if (hostText === "") {
    if (special || at >= 0 || portText !== "") throw new InvalidUrl();
    url.host = "";
  } else url.host = parseHost(hostText, special);
  url.path = [];
  if (path !== "") appendPath(url.path, path.slice(1), url.scheme);
  else if (special) url.path.push("");
}

function copyOf(base: UrlRecord): UrlRecord {
  return { ...base, path: Array.isArray(base.path) ? [...base.path] : base.path };
}

function parse(rawInput: string, base: UrlRecord | undefined): UrlRecord {
  const input = cleanInput(rawInput);
  const schemeMatch = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(input);
  if (schemeMatch) {
    const scheme = (schemeMatch[1] as string).toLowerCase();
    const special = isSpecial(scheme);
    const { body, query, fragment } = splitSuffix(input.slice(schemeMatch[0].length), special);
    const url: UrlRecord = {
      scheme,
      username: "",
      password: "",
      host: null,
      port: null,
      path: [],
      query,
      fragment,
    };
    if (scheme === "file") {
      if (/^[/\\]{2}/.test(body)) parseAuthority(url, body.slice(2));
      else if (base?.scheme === "file" && !/^[/\\]/.test(body))
        return relative(body, query, fragment, base, scheme, input);
      else {
        url.host = "";
        appendPath(url.path as string[], body.replace(/^[/\\]/, ""), scheme);
      }
      return url;
    }
    if (special) {
      if (base?.scheme === scheme && !/^[/\\]/.test(body))
        return relative(body, query, fragment, base, scheme, input);
      parseAuthority(url, body.replace(/^[/\\]*/, ""));
      return url;
    }
    if (body.startsWith("//")) parseAuthority(url, body.slice(2));
    else if (body.startsWith("/")) appendPath(url.path as string[], body.slice(1), scheme);
    else url.path = percentEncode(body, "");
    return url;
  }
  if (base === undefined) throw new InvalidUrl();
  const special = isSpecial(base.scheme);
  const { body, query, fragment } = splitSuffix(input, special);
  return relative(body, query, fragment, base, base.scheme, input);
}

function relative(
  body: string,
  query: string | null,
  fragment: string | null,
  base: UrlRecord,
  scheme: string,
  input: string,
): UrlRecord {
  const special = isSpecial(scheme);
  if (typeof base.path === "string") {
    if (!input.startsWith("#")) throw new InvalidUrl();
    return { ...copyOf(base), fragment };
  }
  const url = copyOf(base);
  url.scheme = scheme;
  url.fragment = fragment;
  const slash = special ? /^[/\\]/ : /^\//;
  if (slash.test(body) && slash.test(body.slice(1))) {
    url.username = "";
    url.password = "";
    url.port = null;
    url.query = query;
    parseAuthority(url, body.slice(2));
    return url;
  }
  if (slash.test(body)) {
    url.path = [];
    url.query = query;
    appendPath(url.path, body.slice(1), scheme);
    return url;
  }
  if (body === "") {
    url.query = query ?? base.query;
    return url;
  }
  url.query = query;
  const path = [...(base.path as string[])];
  path.pop();
  appendPath(path, body, scheme);
  url.path = path;
  return url;
}

/** Parses `input` against `base`; undefined when it is not a valid URL. */
export function parseUrl(input: string, base?: UrlRecord): UrlRecord | undefined {
  try {
    return parse(input, base);
  } catch (error) {
    if (error instanceof InvalidUrl) return undefined;
    throw error;
  }
}

export function serializePath(url: UrlRecord): string {
  if (typeof url.path === "string") return url.path;
  // A path starting with an empty segment and no host would read as an authority: "/." keeps it a path.
  const prefix = url.host === null && url.path.length > 1 && url.path[0] === "" ? "/." : "";
  return prefix + url.path.map((segment) => `/${segment}`).join("");
}

export function serializeUrl(url: UrlRecord, withFragment = true): string {
  let out = `${url.scheme}:`;
  if (url.host !== null) {
    out += "//";
    if (url.username !== "" || url.password !== "") {
      out += url.username + (url.password !== "" ? `:${url.password}` : "") + "@";
    }
    out += url.host + (url.port !== null ? `:${url.port}` : "");
  }
  out += serializePath(url);
  if (url.query !== null) out += `?${url.query}`;
  if (withFragment && url.fragment !== null) out += `#${url.fragment}`;
  return out;
}
