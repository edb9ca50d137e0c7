// The privacy module's API: PII detection, the per-session vault, the bridge middleware.
export {
  createPiiDetector,
  DEFAULT_PHONE_REGION,
  type PiiDetector,
  type PiiDetectorOptions,
  type PiiPattern,
  TOKEN_PATTERN,
} from "./detect.ts";
export {
  type DetectionCase,
  type DetectionOutcome,
  evaluateDetectionCases,
  FALSE_POSITIVES,
  renderPiiDetectionTable,
  TRUE_POSITIVES,
} from "./detection-cases.ts";
export { BUILTIN_PII_KINDS, type BuiltinPiiKind, type PiiMatch } from "./detectors.ts";
export { PrivacyError, type PrivacyErrorCode } from "./errors.ts";
export { type PrivacyMiddlewareOptions, privacyMiddleware } from "./middleware.ts";
export type { TokenVault } from "./token-vault.ts";
export { toolGlobMatcher } from "./tool-glob.ts";
export { PiiVault, type VaultSnapshot } from "./vault.ts";
export { loadVaultKey, openVault, sealVault, VAULT_KEY_ENV } from "./vault-crypto.ts";
