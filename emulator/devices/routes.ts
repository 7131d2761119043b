import { randomBytes } from "node:crypto";
import { sendOutcome } from "../account/outcome";
import type { Account, Device } from "../account/account";
import { paginate } from "../http/cursor";
import { sendInvalid } from "../http/errors";
import { pageParams, repeated } from "../http/query";
import type { Ctx, Route } from "../http/router";
import { sendEmpty, sendJson } from "../http/util";
import { known, validate } from "../http/validate";
import type { EmulatorState } from "../state";
import { mobileConfig } from "./mobileconfig";

const V1 = "/oapi/v1/devices";
const ITEM = `${V1}/{device_id}`;

/**
 * The devices group: v1 CRUD and list, the v2 cursor-paginated list, settings, DoH password reset,
 * `.mobileconfig` profiles and the device's dedicated addresses.
 *
 * @example
 * ```ts
 * router.add(deviceRoutes(state));
 * ```
 */
export function deviceRoutes(state: EmulatorState): Route[] {
  const withDevice = (handle: (ctx: Ctx, device: Device) => void) => (ctx: Ctx) => {
    const device = ctx.account.devices.get(ctx.params.device_id!);
    return device ? handle(ctx, device) : sendEmpty(ctx.res, 404);
  };
  const view = (account: Account) => (d: Device) => account.deviceView(d);

  function listV2({ res, url, account }: Ctx): void {
    const page = pageParams(state.cursorKey, url, ["dns_servers", "devices", "search"], 10);
    if (Array.isArray(page)) return sendInvalid(res, page);
    const servers = repeated(url, "dns_servers");
    const ids = repeated(url, "devices");
    const search = (url.searchParams.get("search") ?? "").toLowerCase();
    // Newest first, as the service lists them.
    const all = [...account.devices.values()].reverse().filter(
      (d) =>
        (servers.length === 0 || servers.includes(d.dns_server_id)) &&
        (ids.length === 0 || ids.includes(d.id)) &&
        (search === "" || d.name.toLowerCase().includes(search) || d.id.includes(search)),
    );
    const { items, navigation } = paginate(state.cursorKey, page.scope, all, page.offset, page.limit);
    sendJson(res, 200, { items: items.map(view(account)), navigation });
  }

  const config = (protocol: "doh" | "dot") =>
    withDevice(({ res, url, account }, device) => {
      const addresses = account.deviceView(device).dns_addresses as Record<string, string>;
      const server = protocol === "doh" ? addresses.dns_over_https_url! : addresses.dns_over_tls_url!.replace(/^tls:\/\//, "");
      const body = mobileConfig(protocol, device, server, repeated(url, "exclude_wifi_networks"), repeated(url, "exclude_domain"));
      res.writeHead(200, {
        "content-type": "application/x-apple-aspen-config",
        "content-length": body.length,
        "content-disposition": `attachment; filename="${protocol}.mobileconfig"`,
      });
      res.end(body);
    });

  return [
    { method: "GET", path: V1, handle: ({ res, account }) => sendJson(res, 200, [...account.devices.values()].map(view(account))) },
    { method: "POST", path: V1, handle: ({ res, body, account }) => sendOutcome(res, account.createDevice(body), view(account)) },
    { method: "GET", path: "/oapi/v2/devices", handle: listV2 },
    { method: "GET", path: ITEM, handle: withDevice(({ res, account }, d) => sendJson(res, 200, account.deviceView(d))) },
    { method: "PUT", path: ITEM, handle: ({ res, body, params, account }) => sendOutcome(res, account.updateDevice(params.device_id!, body)) },
    { method: "DELETE", path: ITEM, handle: ({ res, params, account }) => sendOutcome(res, account.removeDevice(params.device_id!)) },
    { method: "GET", path: `${ITEM}/settings`, handle: withDevice(({ res }, d) => sendJson(res, 200, { ...d.settings })) },
    {
      method: "PUT",
      path: `${ITEM}/settings`,
      handle: withDevice(({ res, body }, d) => {
        const errors = validate("DeviceSettingsUpdate", body);
        if (errors.length) return sendInvalid(res, errors);
        Object.assign(d.settings, known("DeviceSettingsUpdate", body));
        sendEmpty(res, 200);
      }),
    },
    {
      method: "PUT",
      path: `${ITEM}/doh_password/reset`,
      handle: withDevice(({ res }, d) => {
        d.dohPassword = randomBytes(12).toString("base64url");
        d.dohPasswordResets++;
        sendEmpty(res, 200);
      }),
    },
    { method: "GET", path: `${ITEM}/doh.mobileconfig`, handle: config("doh") },
    { method: "GET", path: `${ITEM}/dot.mobileconfig`, handle: config("dot") },
    {
      method: "GET",
      path: `${ITEM}/dedicated_addresses`,
      handle: withDevice(({ res, account }, d) => {
        const ipv4 = [...account.dedicatedIpv4].filter(([, id]) => id === d.id).map(([ip]) => ip);
        sendJson(res, 200, { ipv4, ipv6: [], ipv4_limit: account.limitsView().dedicated_ipv4 });
      }),
    },
    { method: "POST", path: `${ITEM}/dedicated_addresses/ipv4`, handle: ({ res, body, params, account }) => sendOutcome(res, account.linkIpv4(params.device_id!, body)) },
    {
      method: "DELETE",
      path: `${ITEM}/dedicated_addresses/ipv4`,
      handle: ({ res, url, params, account }) => sendOutcome(res, account.unlinkIpv4(params.device_id!, url.searchParams.get("ip"))),
    },
  ];
}
