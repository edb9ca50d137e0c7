import { CodedError } from "../errors/coded-error.ts";

export type AuthErrorCode =
  /** The server needs a login and this process may not ask for one (or nobody finished it in time). */
  | "auth.login_required"
  /** The user or the authorization server refused, or the redirect came back wrong. */
  | "auth.denied"
  /** Discovery, registration or the token exchange failed. */
  | "auth.failed"
  /** The loopback redirect listener could not start. */
  | "auth.callback_failed";

/** Any failure authorizing the gateway with an upstream server. `data.server` names it when known. */
export class AuthError extends CodedError<AuthErrorCode> {
  override readonly name = "AuthError";
}
