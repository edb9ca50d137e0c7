import type { LogCollector } from "../isolate/log-collector.ts";
import type { EndReason } from "../isolate/run-outcome.ts";
import { createHostCalls, type HostReply } from "../shared/host-calls.ts";
import type { Outcome } from "../shared/run-result.ts";
import type { ExecutionError, RunOptions } from "../types.ts";
import type { ChildMessage, HostMessage } from "./protocol.ts";
import type { ProcessExit, SandboxProcess } from "./sandbox-process.ts";

/** setTimeout fires at once for delays above this, so longer limits are capped to it. */
const MAX_TIMER_MS = 2_147_483_647;

/** What differs between the runners that share one run's lifecycle (TypeScript's and Python's). */
export interface ProcessRun {
  child: SandboxProcess;
  options: RunOptions;
  logs: LogCollector;
  inputs: { toolsJson: string; contextJson: string | undefined; limitsJson: string };
  /** Fields of the `run` message beyond the shared ones (Python's skills). */
  runExtras?: { skillsJson?: string };
  /** The outcome a runner's final message carries; undefined for any other message. */
  ending(message: ChildMessage): Outcome | undefined;
  /** Why the process ended (or was stopped) without a final message. */
  exitError(exit: ProcessExit, ended: EndReason | undefined): ExecutionError;
  /** Gets a way to stop the run while it lasts (`close()` of the runtime stops them all). */
  active: Set<(reason: EndReason) => void>;
}

/**
 * One execution in a started sandbox process: the host side of its bridge,
 * the watchdog, the caller's abort, and the end, whichever comes first: the
 * runner's final message, the process ending, or a stop. Kills the process
 * at the end (one execution per process).
 */
export async function runInProcess(run: ProcessRun): Promise<Outcome> {
  const { child, options } = run;
  const calls = new AbortController();
  const host = createHostCalls({
    tools: options.tools,
    bridge: options.bridge,
    logs: run.logs,
    signal: calls.signal,
    maxResultBytes: options.maxResultBytes,
  });
  let ended: EndReason | undefined;
  let finish: (outcome: Outcome) => void = () => {};
  const done = new Promise<Outcome>((resolve) => {
    finish = resolve;
  });
  const stop = (reason: EndReason): void => {
    ended ??= reason;
    finish({ error: run.exitError({ code: null, signal: null, stderr: "" }, reason) });
  };
  const onAbort = (): void => stop("aborted");
  const answer = (id: number, reply: Promise<HostReply>): void => {
    void reply.then((value) => child.send({ type: "reply", id, reply: value }));
  };
  child.attach((message: ChildMessage) => {
    switch (message.type) {
      case "call":
        answer(message.id, host.call(message.server, message.tool, message.args));
        break;
      case "search":
        if (host.search !== undefined)
          answer(message.id, host.search(message.query, message.limit, message.minScore));
        break;
      case "op":
        answer(message.id, host.op(message.op, message.args));
        break;
      case "log":
        host.log(message.level, message.message);
        break;
      default: {
        const outcome = run.ending(message);
        if (outcome !== undefined) finish(outcome);
      }
    }
  });
  void child.exited.then((exit) => finish({ error: run.exitError(exit, ended) }));
  run.active.add(stop);
  const watchdog = setTimeout(stop, Math.min(Math.max(0, options.timeoutMs), MAX_TIMER_MS), "timeout");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  // An abort while the process was being acquired has fired already: the listener missed it.
  if (options.signal?.aborted) onAbort();
  try {
    if (ended === undefined) {
      const { toolsJson, contextJson, limitsJson } = run.inputs;
      const message: HostMessage = {
        type: "run",
        code: options.code,
        toolsJson,
        ...(contextJson === undefined ? {} : { contextJson }),
        limitsJson,
        search: host.search !== undefined,
        ...run.runExtras,
      };
      child.send(message);
    }
    const outcome = await done;
    return { ...outcome, toolResultBytes: host.bytesIn() };
  } finally {
    clearTimeout(watchdog);
    options.signal?.removeEventListener("abort", onAbort);
    run.active.delete(stop);
    calls.abort(new Error("execution ended"));
    // One execution per process: whatever it left running goes with its process group.
    child.kill();
  }
}
