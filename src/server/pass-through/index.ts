export type { PassThroughOptions, PassThroughRegistration } from "./register.ts";
export { PASS_THROUGH_CAPABILITIES, registerPassThrough } from "./register.ts";
export type {
  PassThroughCallOptions,
  PassThroughChange,
  PassThroughProgress,
  PassThroughRequestOptions,
  PassThroughSource,
} from "./source.ts";
