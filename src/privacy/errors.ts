export type PrivacyErrorCode =
  | "privacy.invalid_key"
  | "privacy.vault_locked"
  | "privacy.vault_corrupt"
  | "privacy.invalid_pattern";

export class PrivacyError extends Error {
  override readonly name = "PrivacyError";
  readonly code: PrivacyErrorCode;
  readonly data: Record<string, unknown>;

  constructor(
    code: PrivacyErrorCode,
    message: string,
    data: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = code;
    this.data = data;
  }
}
