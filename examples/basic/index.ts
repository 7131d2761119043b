import * as pulumi from "@pulumi/pulumi";
import { Token } from "pulumi-dns-account";

// Credentials come from stack config (pulumi config set --secret dns-account:password …) or DNS_ACCOUNT_*.
const token = new Token("ci");

export const accessToken = token.accessToken; // a secret
export const expiresAt = token.expiresAt;
export const limits = token.client().apply(async (client) => {
  const l = await client.account.limits();
  return { devices: `${l.devices.used}/${l.devices.limit}`, dnsServers: `${l.dns_servers.used}/${l.dns_servers.limit}` };
});
export const project = pulumi.getProject();
