// The public API of `toolscript`. Every export is named here; nothing else is public.
export type { Catalog, CatalogServer } from "./catalog/catalog.ts";
export { renderToolDeclaration } from "./catalog/declaration/tool-declaration.ts";
export { renderTree } from "./catalog/declaration/tree.ts";
export type { CatalogTool, JsonSchema, ToolAnnotations, ToolDefinition } from "./catalog/types.ts";
export { ConfigError, type ConfigErrorCode } from "./config/errors.ts";
export type { ConfigIssue } from "./config/issues.ts";
export { type LoadConfigOptions, loadConfig } from "./config/load.ts";
export { parseConfig } from "./config/parse.ts";
export type { Config } from "./config/schema.ts";
export type { ServerConfig } from "./config/servers.ts";
export type { LlmSettings, ToolscriptSettings } from "./config/settings.ts";
export { GatewayError, type GatewayErrorCode } from "./gateway/errors.ts";
export { createGateway, Gateway } from "./gateway/gateway.ts";
export { type Logger, silentLogger, stderrLogger } from "./gateway/logger.ts";
export type { GatewaySolveRequest } from "./gateway/solve.ts";
export type { CodeLanguage, ExecuteRequest, ExecuteResponse, GatewayOptions } from "./gateway/types.ts";
export { type CreateModelClientOptions, createModelClient } from "./llm/create-model-client.ts";
export { ModelError, type ModelErrorCode, type ModelErrorData } from "./llm/errors.ts";
export {
  createSamplingClient,
  type SamplingClientOptions,
  type SamplingRequester,
} from "./llm/sampling-client.ts";
export type {
  ModelCallOptions,
  ModelClient,
  ModelContent,
  ModelMessage,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelStopReason,
  ModelText,
  ModelTool,
  ModelToolResult,
  ModelToolUse,
  ModelUsage,
} from "./llm/types.ts";
export {
  formatUsage,
  type ModelPricing,
  UsageLedger,
  type UsageTotals,
  withUsage,
} from "./llm/usage-ledger.ts";
export type {
  ExecutionError,
  ExecutionErrorKind,
  ExecutionResult,
  LogEntry,
  SandboxRuntime,
} from "./sandbox/types.ts";
export { SolveError, type SolveErrorCode } from "./solve/errors.ts";
export type { SolveResponse } from "./solve/solve-task.ts";
export type { SkillOrigin } from "./store/types.ts";
export { UpstreamError, type UpstreamErrorCode } from "./upstream/errors.ts";
export type { UpstreamState, UpstreamStatus } from "./upstream/types.ts";
