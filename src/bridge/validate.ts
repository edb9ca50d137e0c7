import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { CatalogTool, JsonSchema } from "../catalog/types.ts";
import { BridgeError } from "./errors.ts";
import { dropNullOptionals } from "./null-optionals.ts";
import type { ToolCallMiddleware } from "./types.ts";

const MAX_REPORTED_ISSUES = 5;

export interface ArgumentIssue {
  /** Where in the arguments, e.g. `args.items[2].name`. */
  path: string;
  message: string;
}

/**
 * Checks tool arguments against the tool's input schema before any call, so
 * a bad call fails with the path of the bad field and the upstream never sees it.
 * Validators are compiled once per schema object.
 */
export class ArgumentValidator {
  readonly #ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true });
  readonly #cache = new WeakMap<JsonSchema, ValidateFunction | null>();

  constructor() {
    // ajv-formats is CommonJS; under NodeNext its default import is the module object.
    const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
    addFormats(this.#ajv);
  }

  /** The problems with `args`, empty when they are valid (or the schema cannot be compiled). */
  check(tool: CatalogTool, args: unknown): ArgumentIssue[] {
    const validate = this.#validator(tool.definition.inputSchema);
    if (!validate || validate(args)) return [];
    return (validate.errors ?? []).slice(0, MAX_REPORTED_ISSUES).map(toIssue);
  }

  middleware(): ToolCallMiddleware {
    return (given, next) => {
      const args = dropNullOptionals(given.tool.definition.inputSchema, given.args);
      const call = args === given.args ? given : { ...given, args };
      const issues = this.check(call.tool, call.args);
      if (issues.length === 0) return next(call);
      const list = issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
      throw new BridgeError(
        "ValidationError",
        "tool.invalid_args",
        `invalid arguments for ${call.tool.path}: ${list}`,
        {
          server: call.tool.server,
          tool: call.tool.tool,
          issues,
        },
      );
    };
  }

  #validator(schema: JsonSchema): ValidateFunction | null {
    const cached = this.#cache.get(schema);
    if (cached !== undefined) return cached;
    let validate: ValidateFunction | null;
    try {
      // `$schema` names a draft; the checks we need are the same across drafts.
      const { $schema: _ignored, ...rest } = schema;
      validate = this.#ajv.compile(rest);
    } catch {
      // A schema ajv cannot compile must not block the tool: the upstream still validates.
      validate = null;
    }
    this.#cache.set(schema, validate);
    return validate;
  }
}

function toIssue(error: ErrorObject): ArgumentIssue {
  let path = `args${pointerToPath(error.instancePath)}`;
  let message = error.message ?? "is invalid";
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required" && typeof params.missingProperty === "string") {
    path += propertyAccess(params.missingProperty);
    message = "is required";
  } else if (error.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    path += propertyAccess(params.additionalProperty);
    message = "is not allowed";
  } else if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    message = `must be one of ${params.allowedValues.map((value) => JSON.stringify(value)).join(", ")}`;
  }
  return { path, message };
}

function pointerToPath(pointer: string): string {
  if (pointer === "") return "";
  return pointer
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : propertyAccess(segment)))
    .join("");
}

function propertyAccess(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
