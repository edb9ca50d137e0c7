import type { CatalogTool } from "../catalog/types.ts";
import { compileGlob, matchesAny } from "./glob.ts";

export interface PolicySettings {
  allow: readonly string[];
  deny: readonly string[];
  approve: readonly string[];
  readOnly: boolean;
  unannotated: "allow" | "approve" | "deny";
  approveDestructive: boolean;
}

export type PolicyAction = "allow" | "approve" | "deny";

export interface PolicyDecision {
  action: PolicyAction;
  /** Why, in words an agent or a user can act on. */
  reason: string;
}

/**
 * Decides, per tool, whether code may call it: `deny` wins, then anything
 * not in `allow` is denied, then read-only mode, then approval rules.
 * Decisions depend only on the tool, so they are cached per tool.
 */
export class Policy {
  readonly #settings: PolicySettings;
  readonly #allow: RegExp[];
  readonly #deny: RegExp[];
  readonly #approve: RegExp[];
  readonly #cache = new WeakMap<CatalogTool, PolicyDecision>();

  constructor(settings: PolicySettings) {
    this.#settings = settings;
    this.#allow = settings.allow.map(compileGlob);
    this.#deny = settings.deny.map(compileGlob);
    this.#approve = settings.approve.map(compileGlob);
  }

  decide(tool: CatalogTool): PolicyDecision {
    const cached = this.#cache.get(tool);
    if (cached) return cached;
    const decision = this.#decide(tool);
    this.#cache.set(tool, decision);
    return decision;
  }

  #decide(tool: CatalogTool): PolicyDecision {
    const names = [`${tool.server}/${tool.tool}`, `${tool.serverId}/${tool.toolId}`];
    const label = `${tool.server}/${tool.tool}`;
    if (matchesAny(this.#deny, names)) return { action: "deny", reason: `${label} is denied by policy.deny` };
    if (!matchesAny(this.#allow, names)) return { action: "deny", reason: `${label} is not in policy.allow` };
    const annotations = tool.definition.annotations;
    if (this.#settings.readOnly) {
      if (annotations?.destructiveHint === true || annotations?.readOnlyHint === false) {
        return { action: "deny", reason: `${label} may change data, and the gateway is in read-only mode` };
      }
      if (annotations?.readOnlyHint !== true) {
        const action = this.#settings.unannotated;
        const reason = `${label} does not say it is read-only, and the gateway is in read-only mode`;
        if (action !== "allow") return { action, reason };
      }
    }
    if (matchesAny(this.#approve, names))
      return { action: "approve", reason: `${label} needs approval (policy.approve)` };
    if (this.#settings.approveDestructive && annotations?.destructiveHint === true) {
      return { action: "approve", reason: `${label} is destructive and needs approval` };
    }
    return { action: "allow", reason: "allowed" };
  }
}
