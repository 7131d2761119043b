import type { ServerResponse } from "node:http";
import { sendError, sendInvalid } from "../http/errors";
import { sendEmpty, sendJson } from "../http/util";
import type { Outcome } from "./account";

/**
 * Writes an {@link Outcome}: 200 with the value (or empty), 404, 400 `ErrorResponse`, or 429
 * `RESOURCE_REACHED_LIMIT` naming the limit's key from `account/limits`.
 *
 * @example
 * ```ts
 * sendOutcome(res, account.createDevice(body), (d) => account.deviceView(d));
 * ```
 */
export function sendOutcome<T>(res: ServerResponse, outcome: Outcome<T>, view?: (value: T) => unknown): void {
  if (outcome.ok) return view && outcome.value !== null ? sendJson(res, 200, view(outcome.value)) : sendEmpty(res, 200);
  switch (outcome.kind) {
    case "not_found":
      return sendEmpty(res, 404);
    case "limit":
      return sendError(res, 429, "RESOURCE_REACHED_LIMIT", `The ${outcome.limit} limit is reached`, [
        { field: outcome.limit, error_code: "FIELD_REACHED_LIMIT", message: "Limit reached" },
      ]);
    case "exists":
      return sendError(res, 400, "ALREADY_EXISTS", outcome.message, outcome.errors);
    case "invalid":
      return sendInvalid(res, outcome.errors, outcome.message);
  }
}
