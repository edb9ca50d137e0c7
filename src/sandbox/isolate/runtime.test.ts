import { describeRuntimeContract } from "../shared/runtime-contract.ts";
import { IsolateRuntime } from "./runtime.ts";

describeRuntimeContract("IsolateRuntime", new IsolateRuntime({ poolSize: 2, prewarmMemoryMb: 64 }));
