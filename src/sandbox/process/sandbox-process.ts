import { type ChildProcess, spawn } from "node:child_process";
import type { SandboxCommand } from "./command.ts";
import { type ChildMessage, encodeHostMessage, type HostMessage, parseChildMessage } from "./protocol.ts";

/** Largest line the child may write (a result, a log call, tool arguments); beyond it the child is killed. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** Stderr kept for diagnosis (never shown to the agent). */
const MAX_STDERR_CHARS = 16 * 1024;
/** How long after the leader exits its pipes may stay open before the exit counts anyway. */
const CLOSE_GRACE_MS = 1_000;

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The start and the end of what the child wrote to stderr. */
  stderr: string;
  /** Set when the host killed the child for breaking the protocol. */
  violation?: string;
}

/**
 * One sandbox process, which serves exactly one execution. It runs in its own
 * process group, so `kill()` takes every process of the sandbox with it.
 */
export class SandboxProcess {
  readonly #child: ChildProcess;
  readonly #maxMessageBytes: number;
  #handler: ((message: ChildMessage) => void) | undefined;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #stderr = "";
  /** The last stderr past the first MAX_STDERR_CHARS: V8 writes its fatal error after its GC trace. */
  #stderrTail = "";
  #violation: string | undefined;
  #exited = false;
  #reaped = false;
  /** Resolves on the child's `ready` line; rejects when it exits first. */
  readonly ready: Promise<void>;
  /** Resolves once the child has exited (never rejects). */
  readonly exited: Promise<ProcessExit>;

  constructor(command: SandboxCommand, maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES) {
    this.#maxMessageBytes = maxMessageBytes;
    this.#child = spawn(command.command, command.args, {
      env: command.env,
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group, so a kill reaches every process it starts.
      detached: true,
    });
    let onReady: () => void = () => {};
    this.ready = new Promise<void>((resolve) => {
      onReady = resolve;
    });
    this.exited = new Promise<ProcessExit>((resolve) => {
      const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
        if (this.#exited) return;
        this.#exited = true;
        const stderr = this.#stderrTail === "" ? this.#stderr : `${this.#stderr}\n…\n${this.#stderrTail}`;
        const exit: ProcessExit = { code, signal, stderr };
        if (this.#violation !== undefined) exit.violation = this.#violation;
        resolve(exit);
      };
      // `close` comes after the last stdout data; `exit` can come before it.
      this.#child.once("close", finish);
      this.#child.once("exit", (code, signal) => {
        this.#reaped = true;
        // Should a stray descendant hold the pipes open, do not wait for it forever.
        setTimeout(finish, CLOSE_GRACE_MS, code, signal).unref();
      });
      this.#child.once("error", (error) => {
        this.#reaped = true;
        this.#stderr += String(error.message);
        finish(null, null);
      });
    });
    const readyOrExit = this.ready;
    this.ready = Promise.race([
      readyOrExit,
      this.exited.then((exit) => {
        throw new Error(describeEarlyExit(exit));
      }),
    ]);
    // Never an unhandled rejection when nobody waits for readiness.
    this.ready.catch(() => {});
    this.#child.stdin?.on("error", () => {});
    this.#child.stdout?.on("data", (chunk: Buffer) => this.#read(chunk, onReady));
    this.#child.stderr?.setEncoding("utf8");
    this.#child.stderr?.on("data", (text: string) => {
      if (this.#stderr.length < MAX_STDERR_CHARS) this.#stderr += text.slice(0, MAX_STDERR_CHARS);
      else this.#stderrTail = (this.#stderrTail + text.slice(-MAX_STDERR_CHARS)).slice(-MAX_STDERR_CHARS);
    });
  }

  /** Process id of the group leader (prlimit's, then bwrap's or Deno's). */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  get alive(): boolean {
    return !this.#exited;
  }

  /** Receives every message after `ready`. */
  attach(handler: (message: ChildMessage) => void): void {
    this.#handler = handler;
  }

  send(message: HostMessage): void {
    if (this.#exited) return;
    this.#child.stdin?.write(encodeHostMessage(message));
  }

  /** Raw bytes for the child's stdin (the Python runner's boot data, before the JSON lines). */
  write(bytes: Uint8Array | string): void {
    if (this.#exited) return;
    this.#child.stdin?.write(bytes);
  }

  /** Kills the whole process group. Safe to call more than once. */
  kill(): void {
    // Whatever it still has in the pipe is of no use any more, and a flood of it would only cost time.
    this.#handler = undefined;
    this.#child.stdout?.destroy();
    // Only while the leader lives: after it is reaped its id (and group id) may be reused.
    if (this.#reaped || this.#child.pid === undefined) return;
    try {
      process.kill(-this.#child.pid, "SIGKILL");
    } catch {
      this.#child.kill("SIGKILL");
    }
  }

  #read(chunk: Buffer, onReady: () => void): void {
    let start = 0;
    let newline = chunk.indexOf(10);
    while (newline >= 0) {
      this.#chunks.push(chunk.subarray(start, newline));
      const line = Buffer.concat(this.#chunks).toString("utf8");
      this.#chunks = [];
      this.#buffered = 0;
      this.#dispatch(line, onReady);
      start = newline + 1;
      newline = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      this.#chunks.push(chunk.subarray(start));
      this.#buffered += chunk.length - start;
      if (this.#buffered > this.#maxMessageBytes) {
        this.#chunks = [];
        this.#buffered = 0;
        this.#violate(`the sandbox sent a message larger than ${this.#maxMessageBytes} bytes`);
      }
    }
  }

  #dispatch(line: string, onReady: () => void): void {
    if (this.#violation !== undefined) return;
    const message = parseChildMessage(line);
    if (message === undefined) {
      this.#violate("the sandbox broke the bridge protocol");
      return;
    }
    if (message.type === "ready") onReady();
    else this.#handler?.(message);
  }

  #violate(reason: string): void {
    this.#violation ??= reason;
    this.kill();
  }
}

function describeEarlyExit(exit: ProcessExit): string {
  const status = exit.signal === null ? `exit code ${exit.code}` : `signal ${exit.signal}`;
  const detail = exit.stderr.trim().split("\n")[0];
  return `the sandbox process ended before it was ready (${status})${detail ? `: ${detail}` : ""}`;
}
