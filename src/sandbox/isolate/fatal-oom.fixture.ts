// Runs one program that makes V8 give up on its isolate, then an ordinary one, in a process of its own:
// the abandoned isolate's thread never ends, so the process ends the way the CLI's does. Prints the two results as JSON.
import { exitProcess } from "../../cli/exit.ts";
import { FakeBridge } from "../fake-bridge.ts";
import { catastrophicIsolates } from "./isolate-pool.ts";
import { IsolateRuntime } from "./runtime.ts";

// A 60 MB string, its 60 MB JSON copy, then a hot loop over it, at a 128 MB limit (isolated-vm#527).
const FATAL = `const s = JSON.stringify("w".repeat(60 * 1024 * 1024));
let n = 0;
for (let i = 0; i < s.length; i++) n += s.charCodeAt(i);
return n;`;

const runtime = new IsolateRuntime({ poolSize: 1, prewarmMemoryMb: 128 });
const bridge = new FakeBridge({});
const run = (code: string) =>
  runtime.run({
    code,
    tools: bridge.namespace(),
    bridge,
    timeoutMs: 20_000,
    memoryMb: 128,
    maxLogBytes: 1_000,
  });

const fatal = await run(FATAL);
const next = await run("return 1 + 1");
process.stdout.write(`${JSON.stringify({ fatal, next, lost: catastrophicIsolates() })}\n`);
exitProcess(0);
