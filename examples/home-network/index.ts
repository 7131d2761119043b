import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { DedicatedIpv4, Device, DnsServer, getFilterLists, rulesFromFile } from "pulumi-dns-account";

// Credentials: stack config (dns-account:apiKey, or :username/:password), DNS_ACCOUNT_*, or dns-account login.
// One rule a line; comments and blank lines are skipped; check runs each rule through AdGuard's parser.
const rules = rulesFromFile(path.join(__dirname, "rules.txt"));

// Two filter lists: the service's main list and its first security list (looked up, not guessed).
const filterListIds = getFilterLists().then(({ filterLists }) => [
  "adguard_dns_filter",
  ...filterLists.filter((l) => l.tags.includes("purpose:security")).slice(0, 1).map((l) => l.filterId),
]);

const home = new DnsServer("home", {
  name: "Home",
  settings: filterListIds.then((ids) => ({
    protectionEnabled: true,
    userRules: { enabled: true, rules },
    filterLists: { enabled: true, ids },
    blockedServices: ["tiktok", "roblox"],
    parentalControl: {
      enabled: true,
      safeSearch: true,
      // Screen time: the listed days are enabled with their window.
      schedule: {
        monday: { from: "07:00", to: "21:00" },
        tuesday: { from: "07:00", to: "21:00" },
        wednesday: { from: "07:00", to: "21:00" },
        thursday: { from: "07:00", to: "21:00" },
        friday: { from: "07:00", to: "22:30" },
      },
    },
  })),
});

const laptop = new Device("laptop", { name: "Laptop", deviceType: "MAC", dnsServerId: home.serverId });
const router = new Device("router", {
  name: "Router",
  deviceType: "ROUTER",
  dnsServerId: home.serverId,
  // Change the value to reset the router's DoH password.
  dohPasswordKeepers: { rotated: "2026-11" },
});
const routerIp = new DedicatedIpv4("router-ip", { deviceId: router.deviceId });

export const serverId = home.serverId;
export const laptopDoh = laptop.dnsAddresses.apply((a) => a.dnsOverHttpsUrl);
// These embed the DoH password: Device marks them secret, and so do these exports.
export const laptopDohWithAuth = pulumi.secret(laptop.dnsAddressesWithAuth.apply((a) => a.dnsOverHttpsWithAuthUrl));
export const routerDohWithAuth = pulumi.secret(router.dnsAddressesWithAuth.apply((a) => a.dnsOverHttpsWithAuthUrl));
export const routerIpv4 = routerIp.ip;
