import { CodedError } from "../errors/coded-error.ts";

export type PrivacyErrorCode =
  | "privacy.invalid_key"
  | "privacy.vault_locked"
  | "privacy.vault_corrupt"
  | "privacy.vault_contended"
  | "privacy.invalid_pattern";

export class PrivacyError extends CodedError<PrivacyErrorCode> {
  override readonly name = "PrivacyError";
}
