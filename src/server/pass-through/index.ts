export type {
  PassThroughAround,
  PassThroughOptions,
  PassThroughRegistration,
  SourcePicker,
} from "./options.ts";
export { PASS_THROUGH_CAPABILITIES } from "./options.ts";
export { registerPassThrough } from "./register.ts";
export type {
  PassThroughCaller,
  PassThroughCallOptions,
  PassThroughChange,
  PassThroughProgress,
  PassThroughRequestOptions,
  PassThroughSource,
} from "./source.ts";
