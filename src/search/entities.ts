/**
 * Things a task names without naming the tool for them: a file path asks for file
 * tools (one it saves to, for writing), a URL for fetching or browsing, a host name for
 * domain tools, a file extension for its format. Each found entity adds words to the query (at a lower weight than the
 * query's own words).
 */
const FILE_PATH = /(?:^|[\s"'(])(?:~|\.{1,2}|[A-Za-z]:)?[\\/][^\s"')]+/;
const URL = /\bhttps?:\/\/\S+|\bwww\.\S+/i;
const EXTENSION = /\.([a-z0-9]{1,5})\b(?![./\\])/gi;
const EMAIL = /\b[\w.+-]+@[\w-]+\.[\w.]+\b/;
/** A bare host name ("amaz0n.com", "www.baidu.com."), not part of a path, URL path or file name. */
const DOMAIN =
  /(?<![@/\w.-])(?:[a-z0-9-]+\.)+(?:com|net|org|io|ai|dev|app|co|gov|edu|info|xyz|cn|uk|de|jp|fr|ru|us)\b(?![/\w-]|\.\w)/i;

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
 * The query without its file paths and URLs: "save it to /root/markdown/report.md" asks to
 * save a file, not for tools about "root" or "markdown"; their words count less (see query.ts).
 */
export function withoutLocations(query: string): string {
  return query.replace(URLS, " ").replace(FILE_PATHS, " ");
}

/**
 * What the task says it does in other words ("" when nothing): saving to a path is writing
 * a file, as plainly as if the task said "write".
 */
export function impliedActions(query: string): string {
  return WRITE_TARGET.test(query.replace(URL, " ")) ? "write" : "";
}

/** Extra query words implied by the entities in `query` ("" when there are none). */
export function entityWords(query: string): string {
  const words: string[] = [];
  const withoutUrls = query.replace(URL, " ");
  if (URL.test(query)) words.push("url web page fetch");
  if (FILE_PATH.test(withoutUrls)) words.push("file path");
  if (EMAIL.test(query)) words.push("email");
  if (DOMAIN.test(query.replace(SCHEME_URLS, " ").replace(EMAILS, " "))) words.push("domain");
  for (const match of withoutUrls.matchAll(EXTENSION)) {
    const extension = EXTENSION_WORDS[(match[1] ?? "").toLowerCase()];
    if (extension) words.push(extension);
  }
  return [...new Set(words.join(" ").split(" "))].join(" ");
}
