export type { PassThroughAround, PassThroughOptions, PassThroughRegistration } from "./register.ts";
export { PASS_THROUGH_CAPABILITIES, registerPassThrough } from "./register.ts";
export type {
  PassThroughCaller,
  PassThroughCallOptions,
  PassThroughChange,
  PassThroughProgress,
  PassThroughRequestOptions,
  PassThroughSource,
} from "./source.ts";
