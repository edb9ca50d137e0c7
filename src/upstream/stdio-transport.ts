import { type ChildProcess, spawn } from "node:child_process";
import {
  deserializeMessage,
  type JSONRPCMessage,
  serializeMessage,
  type Transport,
} from "@modelcontextprotocol/client";
import { getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";
import { BoundedLineReader, type OversizedLine } from "./line-reader.ts";
import { describeOversize, oversizedReply } from "./oversized-message.ts";
import { StderrTail } from "./stderr-tail.ts";

const GRACE_MS = 1500;
/** The SDK's own bound for one stdio message; its client refuses larger ones too. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface StdioTransportOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string | undefined;
  /** Longest message read from the server; a longer answer fails its call instead. */
  maxMessageBytes?: number | undefined;
}

/**
 * Stdio client transport that starts the server in its own process group.
 * The SDK's transport kills only the direct child; servers started through
 * `npx` or a shell leave grandchildren behind, so on close we signal the group.
 *
 * The SDK 2.x client recognises it as stdio-shaped (it has `stderr` and `pid`)
 * and, not being the SDK's own class, probes `server/discover` in place on it:
 * a silent server counts as legacy after the probe timeout.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly stderr = new StderrTail();
  #options: StdioTransportOptions;
  #child: ChildProcess | undefined;
  #reader: BoundedLineReader;
  #oversized: string | undefined;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #closed = false;

  constructor(options: StdioTransportOptions) {
    this.#options = options;
    const limit = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#reader = new BoundedLineReader(limit, {
      line: (text) => this.#deliver(text),
      oversized: (line) => this.#onOversized(line, limit),
    });
  }

  /** Why the transport closed itself, when an oversized message made the stream unusable. */
  get closedBecause(): string | undefined {
    return this.#oversized;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the process ended, once it has. */
  get exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.#exit;
  }

  start(): Promise<void> {
    if (this.#child) throw new Error("transport already started");
    return new Promise((resolve, reject) => {
      const child = spawn(this.#options.command, this.#options.args, {
        env: { ...getDefaultEnvironment(), ...this.#options.env },
        cwd: this.#options.cwd,
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
        shell: false,
      });
      this.#child = child;
      child.once("error", (error) => {
        this.#markExited(null, null);
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => resolve());
      child.once("close", (code, signal) => this.#markExited(code, signal));
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => this.#reader.push(chunk));
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (chunk: string) => this.stderr.push(chunk));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#exit) return Promise.reject(new Error("server process is not running"));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (!child || this.#exit) {
      this.#finish();
      return;
    }
    const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
    child.stdin?.end();
    if (!(await settlesWithin(exited, GRACE_MS))) {
      this.#signalGroup("SIGTERM");
      if (!(await settlesWithin(exited, GRACE_MS))) {
        this.#signalGroup("SIGKILL");
        await settlesWithin(exited, GRACE_MS);
      }
    }
    // The direct child may exit on stdin EOF while its own children linger.
    this.#signalGroup("SIGKILL");
    this.#finish();
  }

  #signalGroup(signal: NodeJS.Signals): void {
    const pid = this.#child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // Group already gone.
    }
  }

  #deliver(text: string): void {
    // Once the stream is judged unusable nothing more is read from it: the server is being replaced.
    if (text.trim() === "" || this.#oversized !== undefined) return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(text);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }

  /** An answer too big to read fails its own call; anything else oversized restarts the server. */
  #onOversized(line: OversizedLine, limit: number): void {
    if (this.#oversized !== undefined) return;
    const reply = oversizedReply(line, limit);
    if (reply) {
      this.onmessage?.(reply);
      return;
    }
    this.#oversized = `the server sent a message of ${describeOversize(line.bytes, limit)} that answers no call`;
    this.onerror?.(new Error(this.#oversized));
    void this.close();
  }

  #markExited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#exit) return;
    this.#exit = { code, signal };
    this.#signalGroup("SIGKILL");
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#reader.clear();
    this.onclose?.();
  }
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
