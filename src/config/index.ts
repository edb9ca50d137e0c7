export {
  DEFAULT_CONFIG_FILE,
  MAX_SANDBOX_MEMORY_MB,
  MAX_SANDBOX_TIMEOUT_MS,
  MIN_SANDBOX_MEMORY_MB,
  MIN_SANDBOX_TIMEOUT_MS,
} from "./defaults.ts";
export type { ConfigErrorCode, ConfigErrorData } from "./errors.ts";
export { ConfigError } from "./errors.ts";
export type { Env } from "./interpolate.ts";
export { interpolate } from "./interpolate.ts";
export type { ConfigIssue } from "./issues.ts";
export { formatIssues } from "./issues.ts";
export type { LoadConfigOptions } from "./load.ts";
export { loadConfig } from "./load.ts";
export type { ConfigValidation, ParseConfigOptions } from "./parse.ts";
export { parseConfig, validateConfig } from "./parse.ts";
export type { PassThroughSetting } from "./pass-through.ts";
export { defaultPassThroughPrefix, MAX_PASS_THROUGH_PREFIX_LENGTH } from "./pass-through.ts";
export type { Config, ConfigSource } from "./schema.ts";
export type { HttpServerConfig, HttpTransport, ServerConfig, StdioServerConfig } from "./servers.ts";
export type { SandboxRuntimeName, ToolscriptSettings } from "./settings.ts";
