/** The part of a stream that decides colour: only a terminal shows it. */
export interface ColourTarget {
  isTTY?: boolean;
}

// CSI sequences (colours, cursor moves) as terminals and citty write them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the escape character is the point.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/**
 * Colour on `stream`: never with `NO_COLOR` set (https://no-color.org, any
 * non-empty value), always with `FORCE_COLOR` set to anything but `0`/`false`,
 * else only when the stream is a terminal (not a pipe, file or MCP client).
 */
export function colourEnabled(stream: ColourTarget, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  return stream.isTTY === true && env.TERM !== "dumb";
}

/** `text` as `stream` should get it: escape sequences removed unless colour is on. */
export function forStream(text: string, stream: ColourTarget, env: NodeJS.ProcessEnv = process.env): string {
  return colourEnabled(stream, env) ? text : text.replace(ANSI, "");
}
