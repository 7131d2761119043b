// A home network's DNS as a Pulumi TypeScript program on the Node.js SDK generated from the provider's
// schema (sdks/nodejs, through the dns-account plugin): the program of examples/python-home-network.
import * as pulumi from "@pulumi/pulumi";
import * as dns from "@pulumi-dns-account/dns-account";

const config = new pulumi.Config();
const serverName = config.get("serverName") ?? "Home";
const blockTtlSeconds = config.getNumber("blockTtlSeconds") ?? 60;

// Reference data and quotas, read from the account.
const limits = dns.getAccountLimitsOutput();
const securityLists = dns.getFilterListsOutput().filterLists.apply((ls) => ls.filter((l) => l.tags.includes("purpose:security")).map((l) => l.filterId));
const blocked = dns.getWebServicesOutput().webServices.apply((ws) => ws.map((w) => w.id).filter((id) => id === "tiktok").sort());

const home = new dns.DnsServer("home", {
    name: serverName,
    settings: {
        protectionEnabled: true,
        blockTtlSeconds,
        blockingMode: { mode: dns.BlockingModeKind.Nxdomain },
        userRules: { enabled: true, rules: ["||ads.example^", "@@||bank.example^$important"] },
        filterLists: { enabled: true, ids: securityLists },
        blockedServices: blocked,
        safeBrowsing: { enabled: true, blockNewlyRegisteredDomains: true },
    },
});

const laptop = new dns.Device("laptop", {
    name: "Laptop",
    deviceType: dns.DeviceType.Linux,
    dnsServerId: home.serverId,
    settings: { protectionEnabled: true },
});

export const serverId = home.serverId;
export const deviceId = laptop.deviceId;
export const laptopAddresses = laptop.dnsAddresses;
// The addresses that embed the device's DNS-over-HTTPS password: a secret output.
export const laptopAddressesWithAuth = laptop.dnsAddressesWithAuth;
export const blockedServices = blocked;
export const devicesInUse = limits.devices.used;
