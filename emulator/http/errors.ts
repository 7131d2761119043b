import type { ServerResponse } from "node:http";
import { sendJson } from "./util";

/** The service's error codes (1.15 `ErrorCodes`) the emulator answers with. */
export type ErrorCode =
  | "BAD_REQUEST"
  | "FIELD_REQUIRED"
  | "FIELD_WRONG_VALUE"
  | "FIELD_REACHED_LIMIT"
  | "ALREADY_EXISTS"
  | "INSUFFICIENT_LICENSE_TYPE"
  | "RESOURCE_REACHED_LIMIT"
  | "TOO_MANY_REQUESTS"
  | "ACCESS_FORBIDDEN"
  | "UNKNOWN";

/** One field's complaint in a validation error body (`FieldError`). */
export interface FieldError {
  field: string;
  error_code: "FIELD_REQUIRED" | "FIELD_WRONG_VALUE" | "FIELD_REACHED_LIMIT" | "ALREADY_EXISTS";
  message: string;
}

/**
 * Writes the service's `ErrorResponse` body: `{ error_code, message, fields }`.
 *
 * @example
 * ```ts
 * sendError(res, 429, "RESOURCE_REACHED_LIMIT", "The devices limit is reached");
 * ```
 */
export function sendError(res: ServerResponse, status: number, code: ErrorCode, message: string, fields: FieldError[] = []): void {
  sendJson(res, status, { error_code: code, message, fields });
}

/** A validation failure (400) with its fields; the first field error's code is not the body's code. */
export function sendInvalid(res: ServerResponse, fields: FieldError[], message = "Validation failed"): void {
  sendError(res, 400, "BAD_REQUEST", message, fields);
}

/** `FIELD_REQUIRED` for a field. */
export const required = (field: string): FieldError => ({ field, error_code: "FIELD_REQUIRED", message: "Field is required" });
/** `FIELD_WRONG_VALUE` for a field. */
export const wrong = (field: string, message = "Wrong value"): FieldError => ({ field, error_code: "FIELD_WRONG_VALUE", message });
