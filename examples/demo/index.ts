/**
 * `npm run demo`: the Token lifecycle, then an account kept as code (a DNS server, a device, a dedicated
 * IPv4), against a local emulator, each step printed with secrets masked.
 *
 * Without the pulumi CLI it drives `@pulumi/pulumi/cmd/dynamic-provider` (the host `pulumi up` launches
 * for dynamic providers) over gRPC, as the engine would: create, renew, rotate, out-of-band revoke then
 * recreate, destroy. With `pulumi` on PATH it runs examples/basic with `pulumi up` and `pulumi destroy`
 * on a local backend instead.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { startProviderHost } from "../../test/support/engine/provider-host";
import { createClient, redact } from "../../sdk";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const USER = { username: "user@example.com", password: "emulator-password" };
const URN = "urn:pulumi:demo::dns-account::pulumi-nodejs:dynamic/dns-account:Token::demo";

let n = 0;
function step(text: string): void {
  console.log(`${++n}. ${text}`);
}

function show(props: Record<string, unknown>): string {
  return `access ${redact(props.accessToken as string)}, refresh ${redact(props.refreshToken as string)}, expires ${props.expiresAt as string}`;
}

async function withHost(emu: Emulator): Promise<void> {
  // The same kind of module text the SDK's serializer writes into state: a require() of the provider file.
  const provider = `exports.handler = () => require(${JSON.stringify(path.join(ROOT, "dist", "provider", "token", "provider.js"))});\n`;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("DNS_ACCOUNT_")));
  const host = await startProviderHost({ programDir: ROOT, env });
  try {
    step("Started the dynamic-provider host (@pulumi/pulumi/cmd/dynamic-provider) and configured it with secret stack config");
    await host.configure({ "dns-account:baseUrl": emu.url, "dns-account:username": USER.username, "dns-account:password": USER.password }, [
      "dns-account:password",
    ]);
    const inputs = { __provider: provider, keepers: { rotation: "1" } };
    const check = await host.check(URN, {}, inputs);
    step(`Check: ${check.failures.length === 0 ? "no failures" : JSON.stringify(check.failures)}`);

    let token = await host.create(URN, inputs);
    step(`Create ${token.id}: ${show(token.properties)}`);

    // Pretend an hour has passed: the access token now expires in a minute.
    const nearExpiry = {
      ...token.properties,
      renewedAt: new Date(Date.now() - 3_600_000).toISOString(),
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    };
    const renewDiff = await host.diff(token.id, URN, nearExpiry, inputs);
    const renewed = await host.update(token.id, URN, nearExpiry, inputs);
    const same = renewed.properties.refreshToken === token.properties.refreshToken;
    step(
      `Renew, as if an hour had passed (state rewritten to expire at ${nearExpiry.expiresAt}; diff: ${renewDiff.changes}, ` +
        `replaces: ${renewDiff.replaces.length ? renewDiff.replaces.join(", ") : "none"}): ${show(renewed.properties)}; refresh token ${same ? "unchanged" : "changed"}`,
    );
    token = { id: token.id, properties: renewed.properties };

    const rotated = { ...inputs, keepers: { rotation: "2" } };
    const rotateDiff = await host.diff(token.id, URN, token.properties, rotated);
    const replacement = await host.create(URN, rotated);
    await host.delete(token.id, URN, token.properties);
    step(`Rotate (replaces: ${rotateDiff.replaces.join(", ")}, delete-before-replace: ${rotateDiff.deleteBeforeReplace}): created ${replacement.id}, then revoked ${token.id}`);
    token = replacement;

    emu.revokeRefreshToken(token.properties.refreshToken as string);
    const read = await host.read(token.id, URN, token.properties);
    step(`Out-of-band revoke, then refresh: ${read.id ? "still there" : "the resource is gone"}`);
    token = await host.create(URN, rotated);
    step(`Recreate ${token.id}: ${show(token.properties)}`);

    await host.delete(token.id, URN, token.properties);
    step(`Destroy: revoked ${token.id} (token calls: ${emu.stats.tokenCalls}, revoke calls: ${emu.stats.revokeCalls})`);

    await accountAsCode(host, emu);
  } finally {
    await host.close();
  }
}

type Host = Awaited<ReturnType<typeof startProviderHost>>;

/** The account resources: create, change in place, drift from a dashboard edit and its repair, adoption, destroy. */
async function accountAsCode(host: Host, emu: Emulator): Promise<void> {
  const provider = (resource: string) => `exports.handler = () => require(${JSON.stringify(path.join(ROOT, "dist", "provider", resource, "provider.js"))});\n`;
  const urn = (type: string, name: string) => `urn:pulumi:demo::dns-account::pulumi-nodejs:dynamic/dns-account:${type}::${name}`;
  const server = { __provider: provider("dns-server"), name: "Home", settings: { userRules: { enabled: true, rules: ["||ads.example^"] }, blockedServices: ["tiktok"], blockTtlSeconds: 60 } };
  const home = await host.create(urn("DnsServer", "home"), server);
  step(`Create DnsServer ${home.id} "Home": rules ${JSON.stringify(server.settings.userRules.rules)}, blocked services ${JSON.stringify(server.settings.blockedServices)}`);
  const device = { __provider: provider("device"), name: "Laptop", deviceType: "MAC", dnsServerId: home.id };
  const laptop = await host.create(urn("Device", "laptop"), device);
  const withAuth = Object.keys(laptop.properties.dnsAddressesWithAuth as Record<string, string>).length;
  step(`Create Device ${laptop.id} on it: DoH ${(laptop.properties.dnsAddresses as Record<string, string>).dnsOverHttpsUrl} (${withAuth} with-auth addresses kept as secrets)`);
  const address = { __provider: provider("dedicated-ipv4"), deviceId: laptop.id };
  const ip = await host.create(urn("DedicatedIpv4", "laptop-ip"), address);
  step(`Create DedicatedIpv4 ${ip.id}, linked to ${laptop.id}`);

  const moreRules = { ...server, settings: { ...server.settings, userRules: { enabled: true, rules: ["||ads.example^", "@@||allowed.example^"] } } };
  const ruleDiff = await host.diff(home.id, urn("DnsServer", "home"), home.properties, moreRules);
  let state = (await host.update(home.id, urn("DnsServer", "home"), home.properties, moreRules)).properties;
  step(`Add a user rule: diff ${ruleDiff.changes}, replaces ${ruleDiff.replaces.length ? ruleDiff.replaces.join(", ") : "none"}; updated in place`);

  const dashboard = createClient({ baseUrl: emu.url, credentials: USER });
  try {
    await dashboard.dnsServers.updateSettings(home.id, { block_ttl_seconds: 3600, ip_log_enabled: false } as never);
    step("Someone edits the server in the dashboard: block TTL 3600 (managed here) and IP logging off (not managed here)");
    const read = await host.read(home.id, urn("DnsServer", "home"), state);
    const drift = await host.diff(home.id, urn("DnsServer", "home"), read.properties, moreRules);
    step(`Refresh: blockTtlSeconds is now ${(read.properties.settings as Record<string, unknown>).blockTtlSeconds}; diff against the program: ${drift.changes}`);
    state = (await host.update(home.id, urn("DnsServer", "home"), read.properties, moreRules)).properties;
    const live = (await dashboard.dnsServers.getSettings(home.id)) as unknown as Record<string, unknown>;
    step(`Up repairs the drift: block TTL ${live.block_ttl_seconds as number} again; IP logging left ${live.ip_log_enabled ? "on" : "off"}, as the dashboard set it`);
  } finally {
    await dashboard.close();
  }

  const adopted = await host.create(urn("DnsServer", "default"), { __provider: provider("dns-server"), adopt: "default", settings: { blockChromePrefetch: true } });
  step(`Adopt the default server ${adopted.id} (adopt: "default"): its declared setting applied, nothing created`);

  await host.delete(ip.id, urn("DedicatedIpv4", "laptop-ip"), ip.properties);
  await host.delete(laptop.id, urn("Device", "laptop"), laptop.properties);
  await host.delete(home.id, urn("DnsServer", "home"), state);
  await host.delete(adopted.id, urn("DnsServer", "default"), adopted.properties);
  step(`Destroy: deleted the device and the server; ${ip.id} unlinked and still allocated (the service cannot release it); the default server left in place`);
}

function hasPulumi(): boolean {
  return spawnSync("pulumi", ["version"], { stdio: "ignore" }).status === 0;
}

/** `pulumi up` / `destroy` of examples/basic in a temporary program with this package installed. */
function withPulumi(emu: Emulator): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-demo-"));
  try {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    execFileSync(npm, ["pack", "--pack-destination", dir, "--ignore-scripts"], { cwd: ROOT, stdio: "ignore" });
    const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
    const pulumiVersion = (require(path.join(ROOT, "package.json")) as { devDependencies: Record<string, string> }).devDependencies["@pulumi/pulumi"];
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "demo", private: true, dependencies: { "pulumi-dns-account": `file:./${tarball}`, "@pulumi/pulumi": pulumiVersion } }));
    execFileSync(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: dir, stdio: "ignore" });
    cpSync(path.join(ROOT, "examples", "basic", "index.ts"), path.join(dir, "index.ts"));
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: dns-account-demo\nruntime: nodejs\n");
    const env = { ...process.env, PULUMI_CONFIG_PASSPHRASE: "demo", PULUMI_BACKEND_URL: `file://${dir}`, PULUMI_SKIP_UPDATE_CHECK: "true" };
    const run = (...args: string[]) => execFileSync("pulumi", [...args, "--non-interactive"], { cwd: dir, env, stdio: "inherit" });
    run("stack", "init", "demo");
    run("config", "set", "dns-account:baseUrl", emu.url);
    run("config", "set", "dns-account:username", USER.username);
    execFileSync("pulumi", ["config", "set", "--secret", "dns-account:password", "--non-interactive"], { cwd: dir, env, input: USER.password });
    run("up", "--yes");
    run("destroy", "--yes");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  // One fixed lifetime (the emulator varies it by default), so a renewed token, issued later, always
  // expires after the one it renews and the printed times read in order.
  const emu = await startEmulator({ tokenLifetimeSeconds: 3600 });
  try {
    console.log(`Account API emulator on ${emu.url}`);
    if (process.env.DNS_ACCOUNT_DEMO_HOST === "1") {
      console.log("DNS_ACCOUNT_DEMO_HOST=1: driving the dynamic-provider host directly (what pulumi up starts for a dynamic provider), over gRPC as the engine does.");
      await withHost(emu);
    } else if (hasPulumi()) {
      console.log("Found the pulumi CLI: running pulumi up and pulumi destroy on examples/basic with this package installed from npm pack (local file backend).");
      withPulumi(emu);
    } else {
      console.log("No pulumi CLI on PATH: driving the dynamic-provider host directly (what pulumi up starts for a dynamic provider), over gRPC as the engine does.");
      await withHost(emu);
    }
  } finally {
    await emu.close();
  }
  console.log("Demo finished.");
}

main().catch((err: unknown) => {
  console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
