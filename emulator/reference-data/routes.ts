import { sendJson } from "../http/util";
import type { Route } from "../http/router";
import { FILTER_LISTS, PARENTAL_CATEGORIES, WEB_SERVICES } from "./data";

/**
 * Reference-data routes: filter lists, web services, parental-control categories.
 *
 * @example
 * ```ts
 * router.add(referenceDataRoutes());
 * ```
 */
export function referenceDataRoutes(): Route[] {
  return [
    { method: "GET", path: "/oapi/v1/filter_lists", handle: ({ res }) => sendJson(res, 200, FILTER_LISTS) },
    { method: "GET", path: "/oapi/v1/web_services", handle: ({ res }) => sendJson(res, 200, WEB_SERVICES) },
    { method: "GET", path: "/oapi/v1/parental_control_categories", handle: ({ res }) => sendJson(res, 200, PARENTAL_CATEGORIES) },
  ];
}
