import { describe } from "node:test";
import { type ContractTarget, withStore } from "./contract-target.ts";
import { auditContract, blobContract, expiryContract, lifecycleContract } from "./records-contract.ts";
import { replicaContract } from "./replicas-contract.ts";
import { fileContract, sessionContract } from "./sessions-contract.ts";
import { skillContract } from "./skills-contract.ts";

export type { ContractTarget } from "./contract-target.ts";
export { withStore };

/**
 * The one suite every `SharedStore` engine passes (issue #22): each method of
 * each domain, and what replicas rely on (atomic quotas, claims and versions,
 * shared rate limits, change notices). Declares node:test suites under `name`.
 */
export function describeStoreContract(name: string, target: ContractTarget): void {
  describe(`${name}: SharedStore contract`, () => {
    describe("sessions", () => sessionContract(target));
    describe("workspace files", () => fileContract(target));
    describe("skills", () => skillContract(target));
    describe("vaults and credentials", () => blobContract(target));
    describe("audit", () => auditContract(target));
    describe("caches and rate limits", () => expiryContract(target));
    describe("lifecycle", () => lifecycleContract(target));
    const openPair = target.openPair;
    if (openPair) describe("two stores on one database", () => replicaContract(target, openPair));
  });
}
