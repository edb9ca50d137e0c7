/**
 * Things a task names without naming the tool for them: a file path asks for file
 * tools (one it saves to, for writing), a URL for fetching or browsing, a host name for
 * domain tools, a file extension for its format, an identifier for its registry (arXiv,
 * DOI, NCT…), pasted base64 for a decoder. Each found entity adds words to the query (at a
 * lower weight than the query's own words).
 */
const FILE_PATH = /(?:^|[\s"'(])(?:~|\.{1,2}|[A-Za-z]:)?[\\/][^\s"')]+/;
const URL = /\bhttps?:\/\/\S+|\bwww\.\S+/i;
/**
 * A file extension, also at the end of a sentence ("…/apple.pptx."); not a directory's
 * ("a.d/"), nor one followed by another (".tar" of ".tar.gz").
 */
const EXTENSION = /\.([a-z0-9]{1,5})\b(?![/\\]|\.\w)/gi;
const EMAIL = /\b[\w.+-]+@[\w-]+\.[\w.]+\b/;
/** A bare host name ("amaz0n.com", "www.baidu.com."), not part of a path, URL path or file name. */
const DOMAIN =
  /(?<![@/\w.-])(?:[a-z0-9-]+\.)+(?:com|net|org|io|ai|dev|app|co|gov|edu|info|xyz|cn|uk|de|jp|fr|ru|us)\b(?![/\w-]|\.\w)/i;

/**
 * Identifiers of a well-known registry or format, and the words a tool description uses for
 * what they name: a task quoting "arXiv 2203.12277" or "NCT04280705" wants that registry's tools.
 */
const IDENTIFIERS: readonly { readonly pattern: RegExp; readonly words: string }[] = [
  // arXiv ids since 2007: yymm.nnnn(n), with an optional version.
  { pattern: /(?<![\w.])\d{2}(?:0[1-9]|1[0-2])\.\d{4,5}(?:v\d+)?(?![\w.])/, words: "arxiv paper" },
  { pattern: /\b10\.\d{4,9}\/[^\s"'<>]+/, words: "doi paper article" },
  { pattern: /\bNCT\d{8}\b/, words: "clinical trial" },
  { pattern: /\bPMID:?\s*\d{5,9}\b/i, words: "pubmed article" },
  { pattern: /\bISBN(?:-1[03])?:?\s*[\d-]{10,17}[\dX]?\b/i, words: "isbn book" },
  {
    pattern: /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d.])/,
    words: "ip address",
  },
  // Latitude, longitude in decimal degrees.
  { pattern: /(?<![\d.])-?\d{1,2}\.\d{3,},\s*-?\d{1,3}\.\d{3,}(?![\d.])/, words: "coordinates location" },
  { pattern: /;base64,/, words: "base64 encoded data" },
  { pattern: /(?<![\w&])#(?:[0-9a-f]{6}|[0-9a-f]{3})\b/i, words: "color" },
  // A tracker's issue key ("OPS-212"), not a standard's or a model's name ("SHA-256", "GPT-4").
  {
    pattern:
      /(?<![\w-])(?!(?:AES|ANSI|COVID|CVE|DIN|ECMA|EN|ES|FY|GPT|HTTP|IEEE|IPV|ISO|MP|PEP|Q[1-4]|RFC|RSA|SHA|SSL|TLS|UTF|WCAG)-)[A-Z][A-Z0-9]{1,9}-\d{1,6}(?![\w-])/,
    words: "issue",
  },
  { pattern: /\bCVE-\d{4}-\d{4,}\b/, words: "vulnerability security advisory" },
  // A semantic version ("v3.8.1", "3.0.0-beta.2"); an IP address has four parts.
  { pattern: /(?<![\w.])v?\d+\.\d+\.\d+(?:-[\w.]+)?(?![\w.])/, words: "version" },
  // SQL as it is pasted: keywords in capitals.
  {
    pattern:
      /\b(?:SELECT\b[^;]{0,400}?\bFROM|INSERT INTO|UPDATE \w+ SET|DELETE FROM|(?:CREATE|ALTER|DROP) (?:TABLE|INDEX|VIEW))\b/,
    words: "sql query database",
  },
  { pattern: /\b[A-Z][A-Z0-9]*_[A-Z0-9_]*=\S/, words: "environment variable" },
  // Five cron fields, one at least a "*" ("30 3 1 * *", "*/15 2 * * *").
  {
    pattern: /(?<!\S)(?=(?:[\d/,-]*\s+){0,4}[\d/,-]*\*)[\d*/,-]+(?:\s+[\d*/,-]+){4}(?!\S)/,
    words: "cron schedule",
  },
  {
    pattern: /\b(?:Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific)\/[A-Z][A-Za-z_]+/,
    words: "timezone time zone",
  },
  { pattern: /\b0x[0-9a-fA-F]{64}\b/, words: "transaction hash" },
  { pattern: /\b0x[0-9a-fA-F]{40}\b/, words: "address wallet token" },
  { pattern: /(?<!\w)\$[A-Z]{1,5}\b/, words: "stock ticker symbol" },
  { pattern: /(?<![\w+])\+\d{1,3}[\s().-]?\d[\d\s().-]{6,}\d/, words: "phone number" },
];

/** File extensions to the words a tool description uses for that format. */
const EXTENSION_WORDS: Readonly<Record<string, string>> = {
  md: "markdown file",
  txt: "text file",
  csv: "csv file spreadsheet",
  tsv: "tsv file spreadsheet",
  xlsx: "excel spreadsheet file",
  xls: "excel spreadsheet file",
  docx: "word document file",
  doc: "word document file",
  pptx: "powerpoint presentation slide file",
  ppt: "powerpoint presentation slide file",
  pdf: "pdf document file",
  html: "html web page file",
  htm: "html web page file",
  json: "json file",
  xml: "xml file",
  yaml: "yaml file",
  yml: "yaml file",
  png: "image file",
  jpg: "image file",
  jpeg: "image file",
  gif: "image file",
  svg: "image svg file",
  webp: "image file",
  mp3: "audio file",
  wav: "audio file",
  flac: "audio file",
  mp4: "video file",
  mov: "video file",
  py: "python code file",
  js: "javascript code file",
  ts: "typescript code file",
  sql: "sql database query",
  zip: "archive file",
};

const FILE_PATHS = new RegExp(FILE_PATH.source, "g");
const SCHEME_URLS = /\bhttps?:\/\/\S+/gi;
const EMAILS = new RegExp(EMAIL.source, "g");
/**
 * A path the task writes to ("save it as Markdown to /x.md", "generate a report in ~/r.md"):
 * the task needs a tool that writes files, however the rest of it reads.
 */
const WRITE_TARGET =
  /\b(?:save[ds]?|saving|write|writes|writing|written|stored?|export(?:ed)?|output|put|generate|create|draft)\b[^.!?\n]{0,80}?\b(?:to|in|at|into|as|under)\s+(?:the\s+|a\s+)?(?:file\s+|path\s+|folder\s+|directory\s+)?["'(]?(?:~|\.{1,2}|[A-Za-z]:)?[\\/]\S/i;
const URLS = new RegExp(URL.source, "gi");
/**
 * A long unbroken run of the base64 alphabet, in mixed case with digits (a long path has
 * no such mix): encoded data (an image, a file), not words.
 */
const BASE64_RUN = /(?<![\w+/])[A-Za-z0-9+/]{80,}={0,2}(?![\w+/=])/g;
const isEncodedData = (run: string) => /[a-z]/.test(run) && /[A-Z]/.test(run) && /\d/.test(run);

/**
 * The query without data pasted into it ("what does this image mean? iVBORw0KGgo…"): its
 * "words" are noise that would match anything; `entityWords` says what the data is.
 */
export function withoutEncodedData(query: string): string {
  return query.replace(BASE64_RUN, (run) => (isEncodedData(run) ? " " : run));
}

/**
 * The query without its file paths and URLs: "save it to /root/markdown/report.md" asks to
 * save a file, not for tools about "root" or "markdown"; their words count less (see query.ts).
 */
export function withoutLocations(query: string): string {
  return withoutFilePaths(query.replace(URLS, " "));
}

/**
 * The query without its file paths, its URLs kept: a page's address often names what the task
 * is about ("…/pull/12", "…/issues/7") where a path's folders name where the result goes.
 */
export function withoutFilePaths(query: string): string {
  return query.replace(FILE_PATHS, " ");
}

/**
 * Text in quotes: a title, a name or a phrase to look for ("find the painting "Corridor in
 * the Asylum"", "the effect text of 'Sky Striker Ace'"). Double quotes may hold apostrophes
 * ("Ender's Game"); single ones too, inside a word ('Don't Stop Me Now'). An apostrophe
 * inside a word ("website's", "don't") opens or closes nothing.
 */
const QUOTED = new RegExp(
  [
    /(?<![\p{L}\p{N}])["“][^"“”\n]{2,120}?["”](?![\p{L}\p{N}])/u.source,
    /(?<![\p{L}\p{N}])['‘](?:[^'‘’"“”\n]|['’](?=\p{L})){2,120}?['’](?![\p{L}\p{N}])/u.source,
  ].join("|"),
  "gu",
);

/** The query without its quoted text: what the task is about, not the values it names. */
export function withoutQuotes(query: string): string {
  return query.replace(QUOTED, " ");
}

/**
 * What the task says it does in other words ("" when nothing): saving to a path is writing
 * a file, as plainly as if the task said "write".
 */
export function impliedActions(query: string): string {
  return WRITE_TARGET.test(query.replace(URL, " ")) ? "write" : "";
}

/**
 * The last request read and its words: a search reads its request's entities for its terms, its
 * embedding and its matched words, and the patterns are the costly part.
 */
let lastRead: { readonly query: string; readonly words: string } | undefined;

/** Extra query words implied by the entities in `query` ("" when there are none). */
export function entityWords(query: string): string {
  if (lastRead?.query !== query) lastRead = { query, words: readEntityWords(query) };
  return lastRead.words;
}

function readEntityWords(query: string): string {
  const words: string[] = [];
  const withoutUrls = query.replace(URL, " ");
  if (withoutEncodedData(withoutUrls) !== withoutUrls) words.push("base64 encoded data");
  if (URL.test(query)) words.push("url web page fetch");
  if (FILE_PATH.test(withoutUrls)) words.push("file path");
  // "@" first: the address pattern rescans long dotted runs.
  const hasEmail = query.includes("@") && EMAIL.test(query);
  if (hasEmail) words.push("email");
  const withoutEmails = hasEmail ? query.replace(EMAILS, " ") : query;
  if (DOMAIN.test(withoutEmails.replace(SCHEME_URLS, " "))) words.push("domain");
  for (const { pattern, words: implied } of IDENTIFIERS) if (pattern.test(withoutUrls)) words.push(implied);
  for (const match of withoutUrls.matchAll(EXTENSION)) {
    const extension = EXTENSION_WORDS[(match[1] ?? "").toLowerCase()];
    if (extension) words.push(extension);
  }
  return [...new Set(words.join(" ").split(" "))].join(" ");
}
