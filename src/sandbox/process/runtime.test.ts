import { describeRuntimeContract } from "../shared/runtime-contract.ts";
import { ProcessRuntime } from "./runtime.ts";

describeRuntimeContract("ProcessRuntime", await ProcessRuntime.create({ poolSize: 2, prewarmMemoryMb: 64 }));
