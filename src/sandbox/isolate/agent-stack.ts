import { SourceMap } from "node:module";
import type { ProgramSourceMap } from "../types.ts";
import { PRELUDE_FILE_NAME } from "./prelude.ts";

/** File name of the agent's script inside the isolate. */
export const AGENT_SCRIPT_NAME = "toolscript:agent";

const AGENT_HEAD = "(async function () {\n";
const AGENT_TAIL = "\n})";
/** Lines the wrapper adds before the agent's code. */
const AGENT_HEAD_LINES = 1;
const DEFAULT_PROGRAM_NAME = "agent.js";
const AGENT_POSITION = new RegExp(`${AGENT_SCRIPT_NAME}:(\\d+):(\\d+)`, "g");
const HIDDEN_FRAME = new RegExp(`${PRELUDE_FILE_NAME}|<isolated-vm`);
const FRAME_LINE = /^\s+at /;

/** Wraps a function body (RunOptions.code) into the script the isolate evaluates to the agent's function. */
export function wrapAgentCode(code: string): string {
  return AGENT_HEAD + code + AGENT_TAIL;
}

export interface AgentPosition {
  line: number;
  column: number;
}

/** Maps positions in the wrapped agent script back to the agent's own source. */
export class AgentPositions {
  readonly #sourceMap: ProgramSourceMap | undefined;
  #decoded: SourceMap | undefined;
  readonly fileName: string;

  constructor(sourceMap: ProgramSourceMap | undefined) {
    this.#sourceMap = sourceMap;
    this.fileName = sourceMap?.sources[0] ?? DEFAULT_PROGRAM_NAME;
  }

  /** `line` and `column` are 1-based, as V8 prints them. */
  map(line: number, column: number): AgentPosition {
    const codeLine = line - AGENT_HEAD_LINES;
    if (this.#sourceMap === undefined) return { line: codeLine, column };
    this.#decoded ??= new SourceMap({
      ...this.#sourceMap,
      file: this.fileName,
      sourceRoot: "",
      sourcesContent: [],
    });
    const entry: Partial<{ originalLine: number; originalColumn: number }> = this.#decoded.findEntry(
      codeLine - 1,
      column - 1,
    );
    if (entry.originalLine === undefined || entry.originalColumn === undefined)
      return { line: codeLine, column };
    return { line: entry.originalLine + 1, column: entry.originalColumn + 1 };
  }
}

export interface MappedStack {
  stack: string;
  /** The innermost position in the agent's code, if any frame is the agent's. */
  position?: AgentPosition;
}

/** Rewrites a stack from the isolate: agent frames in the agent's lines, prelude and boundary frames dropped. */
export function mapAgentStack(stack: string, positions: AgentPositions): MappedStack {
  let position: AgentPosition | undefined;
  const lines: string[] = [];
  for (const line of stack.split("\n")) {
    const isFrame = FRAME_LINE.test(line);
    if (isFrame && HIDDEN_FRAME.test(line)) continue;
    lines.push(
      line.replace(AGENT_POSITION, (_match, lineText: string, columnText: string) => {
        const mapped = positions.map(Number(lineText), Number(columnText));
        if (isFrame) position ??= mapped;
        return `${positions.fileName}:${mapped.line}:${mapped.column}`;
      }),
    );
  }
  const mapped: MappedStack = { stack: lines.join("\n") };
  if (position) mapped.position = position;
  return mapped;
}

/** A compile error from the isolate reads `message [toolscript:agent:L:C]`; returns the message and position. */
export function mapCompileMessage(
  message: string,
  positions: AgentPositions,
): { message: string; position?: AgentPosition } {
  const match = new RegExp(`^(.*) \\[${AGENT_SCRIPT_NAME}:(\\d+):(\\d+)\\]$`, "s").exec(message);
  if (match === null) return { message };
  const position = positions.map(Number(match[2]), Number(match[3]));
  return { message: match[1] ?? message, position };
}
