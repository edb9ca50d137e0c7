import type {
  JSONRPCRequest,
  Prompt,
  Resource,
  ResourceTemplateType,
  Result,
  ServerContext,
  Tool,
} from "@modelcontextprotocol/server";
import { type FamilySpec, namedFamily, uriFamily } from "./merge.ts";

/** The lists pass-through merges, and the handlers it installs. */
export type StoredHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;
export type Family = "tools" | "prompts" | "resources" | "templates";
export interface FamilyItems {
  tools: Tool;
  prompts: Prompt;
  resources: Resource;
  templates: ResourceTemplateType;
}

export const FAMILIES: { [F in Family]: { list: string; field: string; spec: FamilySpec<FamilyItems[F]> } } =
  {
    tools: { list: "tools/list", field: "tools", spec: namedFamily<Tool>("tool") },
    prompts: { list: "prompts/list", field: "prompts", spec: namedFamily<Prompt>("prompt") },
    resources: {
      list: "resources/list",
      field: "resources",
      spec: uriFamily<Resource>("resource", (r) => r.uri),
    },
    templates: {
      list: "resources/templates/list",
      field: "resourceTemplates",
      spec: uriFamily<ResourceTemplateType>("resource template", (t) => t.uriTemplate),
    },
  };

// The handlers this module installs; each delegates what it does not own to the one it replaced.
export const METHODS = [
  "tools/list",
  "tools/call",
  "prompts/list",
  "prompts/get",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "completion/complete",
] as const;
