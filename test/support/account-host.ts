import { type Emulator, type EmulatorOptions, startEmulator } from "../../emulator";
import { type ProviderHost, startProviderHost } from "./engine/provider-host";
import { createClient, type Client } from "../../sdk";
import { _cleanEnv, _closeAll } from "./helpers";
import { _installedProgram, _runInProgram, MOCKS_PRELUDE } from "./program";

/** The account used by the resource tests; distinctive password, searched for in everything. */
export const OPS = "ops@example.com";
export const OPS_PASSWORD = "pw-RES-4e1b7c9a";

/** What a resource test needs: an emulator, a configured provider host of the installed copy, and a "dashboard" client. */
export interface AccountHost {
  emu: Emulator;
  host: ProviderHost;
  /** The serialized `__provider` of each resource type, exactly as the program side writes it. */
  providers: Record<"DnsServer" | "Device" | "DedicatedIpv4", string>;
  /** A separate client of the same account: what a person in the dashboard would do. */
  dashboard: Client;
  urn(type: string, name: string): string;
  close(): Promise<void>;
}

/**
 * Starts everything a resource test drives: the 1.15 emulator, the program's `__provider` texts (from a
 * program run under mocks), and the dynamic-provider host with the password in secret stack config.
 */
export async function _accountHost(options: EmulatorOptions = {}): Promise<AccountHost> {
  const emu = await startEmulator({ users: [{ username: OPS, password: OPS_PASSWORD }], ...options });
  const program = await _installedProgram();
  const { stdout } = await _runInProgram(
    "serialize-account",
    `${MOCKS_PRELUDE}
const { DnsServer, Device, DedicatedIpv4 } = require("pulumi-dns-account");
const s = new DnsServer("s", { name: "x" });
new Device("d", { name: "d", deviceType: "LINUX", dnsServerId: s.serverId });
new DedicatedIpv4("i", {});
Promise.all(["DnsServer", "Device", "DedicatedIpv4"].map((t) => registered((r) => r.type.endsWith(":" + t) && r.inputs.__provider)))
  .then((rs) => console.log(JSON.stringify(Object.fromEntries(rs.map((r) => [r.type.split(":").pop(), r.inputs.__provider])))));`,
  );
  const providers = JSON.parse(stdout) as AccountHost["providers"];
  const host = await startProviderHost({ programDir: program, env: _cleanEnv() });
  await host.configure({ "dns-account:baseUrl": emu.url, "dns-account:username": OPS, "dns-account:password": OPS_PASSWORD }, ["dns-account:password"]);
  const dashboard = createClient({ baseUrl: emu.url, credentials: { username: OPS, password: OPS_PASSWORD } });
  return {
    emu,
    host,
    providers,
    dashboard,
    urn: (type, name) => `urn:pulumi:dev::dns-account-test::pulumi-nodejs:dynamic/dns-account:${type}::${name}`,
    close: () => _closeAll(() => host.close(), () => dashboard.close(), () => emu.close()),
  };
}
