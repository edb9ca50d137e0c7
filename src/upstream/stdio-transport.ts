import { type ChildProcess, spawn } from "node:child_process";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { StderrTail } from "./stderr-tail.ts";

const GRACE_MS = 1500;

export interface StdioTransportOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string | undefined;
}

/**
 * Stdio client transport that starts the server in its own process group.
 * The SDK's transport kills only the direct child; servers started through
 * `npx` or a shell leave grandchildren behind, so on close we signal the group.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly stderr = new StderrTail();
  #options: StdioTransportOptions;
  #child: ChildProcess | undefined;
  #readBuffer = new ReadBuffer();
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #closed = false;

  constructor(options: StdioTransportOptions) {
    this.#options = options;
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
      child.stdout?.on("data", (chunk: Buffer) => {
        this.#readBuffer.append(chunk);
        this.#drain();
      });
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

  #drain(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#readBuffer.readMessage();
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
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
    this.#readBuffer.clear();
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
