import { sendOutcome } from "../account/outcome";
import type { Account, DnsServer } from "../account/account";
import { paginate } from "../http/cursor";
import { sendInvalid } from "../http/errors";
import { pageParams, repeated } from "../http/query";
import type { Ctx, Route } from "../http/router";
import { sendEmpty, sendJson } from "../http/util";
import { settingsView } from "../settings/model";
import type { EmulatorState } from "../state";

const V1 = "/oapi/v1/dns_servers";
const ITEM = `${V1}/{dns_server_id}`;

/**
 * The DNS servers group: v1 CRUD and list, the v2 cursor-paginated list, and settings.
 *
 * @example
 * ```ts
 * router.add(dnsServerRoutes(state));
 * ```
 */
export function dnsServerRoutes(state: EmulatorState): Route[] {
  const view = (account: Account) => (s: DnsServer) => account.serverView(s);
  // As the service does, a listing (v1 and v2) carries every server's user rules empty (their count
  // stays): only reading one server, or its settings, gives the rules. `listingRules` turns it off.
  const listed = (account: Account) => (s: DnsServer) => {
    const v = account.serverView(s);
    if (state.options.listingRules) return v;
    const settings = v.settings as Record<string, unknown>;
    return { ...v, settings: { ...settings, user_rules_settings: { ...(settings.user_rules_settings as object), rules: [] } } };
  };

  function listV2({ res, url, account }: Ctx): void {
    const page = pageParams(state.cursorKey, url, ["dns_servers", "search"], 10);
    if (Array.isArray(page)) return sendInvalid(res, page);
    const ids = repeated(url, "dns_servers");
    const search = (url.searchParams.get("search") ?? "").toLowerCase();
    // Newest first, as the service lists them.
    const all = [...account.dnsServers.values()].reverse().filter(
      (s) => (ids.length === 0 || ids.includes(s.id)) && (search === "" || s.name.toLowerCase().includes(search) || s.id.includes(search)),
    );
    const { items, navigation } = paginate(state.cursorKey, page.scope, all, page.offset, page.limit);
    sendJson(res, 200, { items: items.map(listed(account)), navigation });
  }

  return [
    { method: "GET", path: V1, handle: ({ res, account }) => sendJson(res, 200, [...account.dnsServers.values()].map(listed(account))) },
    { method: "POST", path: V1, handle: ({ res, body, account }) => sendOutcome(res, account.createDnsServer(body), view(account)) },
    { method: "GET", path: "/oapi/v2/dns_servers", handle: listV2 },
    {
      method: "GET",
      path: ITEM,
      handle: ({ res, params, account }) => {
        const s = account.dnsServers.get(params.dns_server_id!);
        return s ? sendJson(res, 200, account.serverView(s)) : sendEmpty(res, 404);
      },
    },
    { method: "PUT", path: ITEM, handle: ({ res, body, params, account }) => sendOutcome(res, account.updateDnsServer(params.dns_server_id!, body)) },
    { method: "DELETE", path: ITEM, handle: ({ res, params, account }) => sendOutcome(res, account.removeDnsServer(params.dns_server_id!)) },
    {
      method: "GET",
      path: `${ITEM}/settings`,
      handle: ({ res, params, account }) => {
        const s = account.dnsServers.get(params.dns_server_id!);
        return s ? sendJson(res, 200, settingsView(s.settings)) : sendEmpty(res, 404);
      },
    },
    { method: "PUT", path: `${ITEM}/settings`, handle: ({ res, body, params, account }) => sendOutcome(res, account.updateDnsServerSettings(params.dns_server_id!, body)) },
  ];
}
