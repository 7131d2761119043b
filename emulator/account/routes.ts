import type { Route } from "../http/router";
import { sendJson } from "../http/util";
import { sendOutcome } from "./outcome";

/**
 * The account group: limits, and the account's dedicated IPv4 addresses (list, allocate).
 *
 * @example
 * ```ts
 * router.add(accountRoutes());
 * ```
 */
export function accountRoutes(): Route[] {
  return [
    { method: "GET", path: "/oapi/v1/account/limits", handle: ({ res, account }) => sendJson(res, 200, account.limitsView()) },
    {
      method: "GET",
      path: "/oapi/v1/dedicated_addresses/ipv4",
      handle: ({ res, account }) =>
        sendJson(res, 200, [...account.dedicatedIpv4].map(([ip, deviceId]) => (deviceId === undefined ? { ip } : { ip, device_id: deviceId }))),
    },
    { method: "POST", path: "/oapi/v1/dedicated_addresses/ipv4", handle: ({ res, account }) => sendOutcome(res, account.allocateIpv4(), (v) => v) },
  ];
}
