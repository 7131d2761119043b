/** `dns-account devices` and `dns-account servers`: ids and names, for `adopt` and `--device`. */
import { type Command, insecureOption, json, out, profileOption, withClient } from "../command";
import { table } from "../report";

const common = { ...profileOption, ...insecureOption, json: { type: "boolean" as const } };

export const devices: Command = {
  summary: "List the account's devices: id, name, type and DNS server",
  usage: `Usage: dns-account devices [--json] [--profile P] [--allow-insecure-http]

Lists every device (credentials as for dns-account token): the ids are what a Device's adopt, a
DedicatedIpv4's deviceId and dns-account logs --device take. --json prints the service's objects.`,
  options: common,
  async run(v) {
    await withClient(v, async (client) => {
      const [list, servers] = await Promise.all([client.devices.list(), client.dnsServers.list()]);
      if (v.json) return void out(json(list, 2));
      const serverName = new Map(servers.map((s) => [s.id, s.name]));
      out(table([["ID", "NAME", "TYPE", "DNS SERVER"], ...list.map((d) => [d.id, d.name, d.device_type, serverName.get(d.dns_server_id) ?? d.dns_server_id])]));
    });
  },
};

export const servers: Command = {
  summary: "List the account's DNS servers: id, name, default, devices",
  usage: `Usage: dns-account servers [--json] [--profile P] [--allow-insecure-http]

Lists every DNS server (credentials as for dns-account token): the ids are what a DnsServer's adopt
and a Device's dnsServerId take. --json prints the service's objects.`,
  options: common,
  async run(v) {
    await withClient(v, async (client) => {
      const list = await client.dnsServers.list();
      if (v.json) return void out(json(list, 2));
      out(table([["ID", "NAME", "DEFAULT", "DEVICES"], ...list.map((s) => [s.id, s.name, s.default ? "yes" : "", s.devices_count])]));
    });
  },
};
