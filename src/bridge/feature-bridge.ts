/**
 * The host side of the `resources` and `prompts` globals for one execution.
 * Each request to a server is one call through the execution's middleware
 * (audit, policy, PII, secret redaction, the call cap), as a request named
 * `resources/read`, `prompts/get`, ... of that server, so `policy.deny:
 * ["github"]` (or `"github/*"`) keeps a server's resources out too.
 */
import type { Catalog, CatalogServer } from "../catalog/catalog.ts";
import type { CatalogTool, JsonSchema } from "../catalog/types.ts";
import type { SandboxPrompts, SandboxResourceContent, SandboxResources } from "../sandbox/types.ts";
import type { UpstreamFeatures } from "../upstream/features.ts";
import { BridgeError } from "./errors.ts";
import type { ResourceRoutes } from "./resource-routes.ts";
import type { ToolCall } from "./types.ts";

/** What the bridge needs of a server's feature methods (upstream/features.ts). */
export type FeatureMethods = Pick<
  UpstreamFeatures,
  "offers" | "listResources" | "listResourceTemplates" | "readResource" | "listPrompts" | "getPrompt"
>;

export type FeatureMethod =
  | "resources/read"
  | "resources/list"
  | "resources/templates/list"
  | "prompts/get"
  | "prompts/list";

export interface FeatureBridgeOptions {
  catalog: Catalog;
  /** A server's feature methods by its original name; undefined for a server the gateway does not know. */
  features(server: string): FeatureMethods | undefined;
  /** The session's remembered URIs and templates. */
  routes: ResourceRoutes;
  /** Runs one request through the execution's middleware and call cap (execution-bridge.ts). */
  invoke(
    tool: CatalogTool,
    args: unknown,
    signal: AbortSignal,
    operation: ToolCall["operation"],
  ): Promise<unknown>;
  /** Real values of PII tokens in a URI the program passes (it only ever saw tokens). */
  detokenize?: ((text: string) => string) | undefined;
  /** Whether the policy denies a request outright: such servers are never tried unasked. */
  denied?: ((tool: CatalogTool) => boolean) | undefined;
  timeoutMs?: number | undefined;
}

const ANY_OBJECT: JsonSchema = { type: "object" };
const SCHEMAS: Record<FeatureMethod, JsonSchema> = {
  "resources/read": { type: "object", properties: { uri: { type: "string" } }, required: ["uri"] },
  "resources/list": ANY_OBJECT,
  "resources/templates/list": ANY_OBJECT,
  "prompts/get": {
    type: "object",
    properties: {
      name: { type: "string" },
      arguments: { type: "object", additionalProperties: { type: "string" } },
    },
    required: ["name"],
  },
  "prompts/list": ANY_OBJECT,
};

/** The `resources` and `prompts` host objects of one execution. */
export function createFeatureBridge(options: FeatureBridgeOptions): {
  resources: SandboxResources;
  prompts: SandboxPrompts;
} {
  const { catalog, routes } = options;
  const tools = new Map<string, CatalogTool>();
  const requestTool = (entry: CatalogServer, method: FeatureMethod): CatalogTool => {
    const key = `${entry.server}\u0000${method}`;
    let tool = tools.get(key);
    if (!tool) {
      const [global, verb] = method.startsWith("resources/templates")
        ? ["resources", "templates"]
        : method.split("/");
      tool = {
        server: entry.server,
        serverId: entry.serverId,
        tool: method,
        toolId: method.replaceAll("/", "_"),
        path: `${global}.${verb}`,
        definition: { name: method, inputSchema: SCHEMAS[method], annotations: { readOnlyHint: true } },
      };
      tools.set(key, tool);
    }
    return tool;
  };
  const serverEntry = (name: unknown, what: string): CatalogServer => {
    if (typeof name !== "string") throw new TypeError(`${what}: server must be a string`);
    const entry = catalog.server(name);
    if (!entry) {
      const known = catalog.servers().map((candidate) => candidate.server);
      throw new BridgeError(
        "ToolError",
        "server.unknown",
        `${what}: no server "${name}"; servers: ${known.join(", ") || "(none)"}`,
        { server: name, servers: known },
      );
    }
    return entry;
  };
  const methodsOf = (entry: CatalogServer): FeatureMethods => {
    const methods = options.features(entry.server);
    if (!methods) throw new BridgeError("ToolError", "server.unknown", `no server "${entry.server}"`, {});
    return methods;
  };
  const timeout = { timeoutMs: options.timeoutMs };
  /** Servers that said they offer `capability` and that the policy lets this execution ask. */
  const offering = (capability: "resources" | "prompts", method: FeatureMethod): CatalogServer[] =>
    catalog
      .servers()
      .filter(
        (entry) =>
          options.features(entry.server)?.offers(capability) === true &&
          !options.denied?.(requestTool(entry, method)),
      );

  const readFrom = async (entry: CatalogServer, uri: string, signal: AbortSignal) => {
    const value = await options.invoke(
      requestTool(entry, "resources/read"),
      { uri },
      signal,
      async (call) => {
        const real = (call.args as { uri: string }).uri;
        const answer = await methodsOf(entry).readResource(real, { signal: call.signal, ...timeout });
        routes.remember(real, entry.server);
        return { server: entry.server, contents: answer.contents.map(contentOf) };
      },
    );
    return value as { server: string; contents: SandboxResourceContent[] };
  };

  const listEach = async (
    server: string | undefined,
    method: "resources/list" | "resources/templates/list" | "prompts/list",
    signal: AbortSignal,
  ): Promise<unknown[]> => {
    const capability = method === "prompts/list" ? "prompts" : "resources";
    const entries =
      server === undefined ? offering(capability, method) : [serverEntry(server, globalName(method))];
    const lists = await Promise.all(
      entries.map(async (entry) => {
        const value = await options.invoke(requestTool(entry, method), {}, signal, async (call) => {
          const methods = methodsOf(entry);
          const request = { signal: call.signal, ...timeout };
          const items =
            method === "resources/list"
              ? await methods.listResources(request)
              : method === "prompts/list"
                ? await methods.listPrompts(request)
                : await methods.listResourceTemplates(request);
          if (method === "resources/list") {
            for (const item of items) {
              const uri = (item as { uri?: unknown } | null)?.uri;
              if (typeof uri === "string") routes.remember(uri, entry.server);
            }
          }
          if (method === "resources/templates/list") routes.setTemplates(entry.server, items);
          return items.map((item) => ({ ...(item as object), server: entry.server }));
        });
        return value as unknown[];
      }),
    );
    return lists.flat();
  };

  const resources: SandboxResources = {
    async read(uri, readOptions, signal) {
      if (typeof uri !== "string" || uri === "") {
        throw new TypeError("resources.read(uri, options?): uri must be a non-empty string");
      }
      if (readOptions.server !== undefined) {
        return readFrom(serverEntry(readOptions.server, "resources.read"), uri, signal);
      }
      const real = options.detokenize?.(uri) ?? uri;
      const remembered = routes.serverOf(real);
      const rememberedEntry = remembered === undefined ? undefined : catalog.server(remembered);
      if (rememberedEntry) return readFrom(rememberedEntry, uri, signal);
      // Not seen before: the servers whose templates match it first, then every other server offering resources.
      const candidates = offering("resources", "resources/read");
      await Promise.all(candidates.map((entry) => learnTemplates(entry, signal).catch(() => undefined)));
      const ordered = [
        ...candidates.filter((entry) => routes.templateMatches(entry.server, real)),
        ...candidates.filter((entry) => !routes.templateMatches(entry.server, real)),
      ];
      const failures: string[] = [];
      for (const entry of ordered) {
        try {
          return await readFrom(entry, uri, signal);
        } catch (error) {
          // A server that does not have it answers with an error; a refusal or a limit ends the search.
          if (!(error instanceof BridgeError) || error.name !== "ToolError" || signal.aborted) throw error;
          failures.push(`${entry.server}: ${error.message}`);
        }
      }
      const asked = ordered.map((entry) => entry.server);
      const others = catalog
        .servers()
        .map((entry) => entry.server)
        .filter((server) => !asked.includes(server));
      throw new BridgeError(
        "ToolError",
        "resource.not_found",
        asked.length === 0
          ? `resources.read: no server to ask for ${uri}: none of the servers that are up offers resources${others.length > 0 ? ` (not asked: ${others.join(", ")})` : ""}`
          : `resources.read: no server has ${uri} (asked ${asked.join(", ")}${others.length > 0 ? `; not asked, offering no resources or refused by policy: ${others.join(", ")}` : ""}); pass { server } to name one`,
        { uri, asked, failures },
      );
    },
    list: (server, signal) => listEach(server, "resources/list", signal),
    templates: (server, signal) => listEach(server, "resources/templates/list", signal),
  };

  /** A server's templates, listed once per session for routing (not a call of the program's: not counted). */
  const learnTemplates = async (entry: CatalogServer, signal: AbortSignal): Promise<void> => {
    if (routes.hasTemplates(entry.server)) return;
    routes.setTemplates(entry.server, await methodsOf(entry).listResourceTemplates({ signal, ...timeout }));
  };

  const prompts: SandboxPrompts = {
    async get(server, name, args, signal) {
      const entry = serverEntry(server, "prompts.get");
      if (typeof name !== "string" || name === "") {
        throw new TypeError("prompts.get(server, name, args?): name must be a non-empty string");
      }
      return options.invoke(
        requestTool(entry, "prompts/get"),
        { name, arguments: args },
        signal,
        async (call) => {
          const real = call.args as { name: string; arguments: Record<string, string> };
          const answer = await methodsOf(entry).getPrompt(real.name, real.arguments, {
            signal: call.signal,
            ...timeout,
          });
          return {
            server: entry.server,
            name: real.name,
            ...(answer.description !== undefined && { description: answer.description }),
            messages: [...answer.messages],
          };
        },
      );
    },
    list: (server, signal) => listEach(server, "prompts/list", signal),
  };
  return { resources, prompts };
}

function globalName(method: FeatureMethod): string {
  if (method === "resources/templates/list") return "resources.templates";
  return method.replace("/", ".");
}

/** One entry of `resources/read` contents as the sandbox receives it (checked: it is wire data). */
function contentOf(entry: unknown): SandboxResourceContent {
  const record = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
  const content: SandboxResourceContent = { uri: typeof record.uri === "string" ? record.uri : "" };
  if (typeof record.mimeType === "string") content.mimeType = record.mimeType;
  if (typeof record.text === "string") content.text = record.text;
  else if (typeof record.blob === "string") content.blob = record.blob;
  else content.text = "";
  return content;
}
