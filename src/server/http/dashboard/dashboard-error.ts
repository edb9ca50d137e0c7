import { CodedError } from "../../../errors/coded-error.ts";

export type DashboardErrorCode = "dashboard.page_missing";

/** The dashboard cannot be served as installed. */
export class DashboardError extends CodedError<DashboardErrorCode> {
  override readonly name = "DashboardError";
}
