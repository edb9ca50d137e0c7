import { CodedError } from "../errors/coded-error.ts";

export type ServerErrorCode =
  | "server.no_token"
  | "server.bad_clients"
  | "server.listen_failed"
  | "server.bad_address";

/** A front end that cannot start as configured. */
export class ServerError extends CodedError<ServerErrorCode> {
  override readonly name = "ServerError";
}
