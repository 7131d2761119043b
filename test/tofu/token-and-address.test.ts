import assert from "node:assert/strict";
import { _tofuSuite } from "../support/tofu-project";

const USER = { username: "tofu-address@example.com", password: "pw-TOFU-ADDRESS-3a9e5c17" };
const API_KEY = "key-TOFU-ADDRESS-dashboard-8e21";

/**
 * Issue 34 under the real `tofu`, the two resources the other tofu tests use least: a dedicated IPv4
 * address (linked, moved to another device in place, unlinked in the dashboard and linked again by
 * apply, imported by its address, unlinked by destroy) and a Token (an in-place change, a refresh token
 * revoked out of band seen as gone and made anew, an import refused with our message).
 */
describe("tofu: dedicated IPv4 addresses and Tokens under the real tofu", function () {
  this.timeout(600_000);
  const suite = _tofuSuite({
    prefix: "dns-account-tofu-address-",
    emulator: { users: [USER] },
    dashboard: { username: USER.username, apiKey: API_KEY },
    env: (emu) => ({ DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_USERNAME: USER.username, DNS_ACCOUNT_PASSWORD: USER.password }),
    secrets: () => [USER.password, API_KEY],
  });
  const { run } = suite;
  const ok = async (...args: string[]) => {
    const r = await run(args);
    assert.equal(r.code, 0, r.out);
    return r.out;
  };

  const config = (linkTo: "router" | "console", renew = 3600, extra = "") => `
provider "dnsaccount" {}

resource "dnsaccount_token" "ci" {
  renew_before_seconds = ${renew}
}

resource "dnsaccount_dns_server" "home" {
  name = "Home"
}

resource "dnsaccount_device" "router" {
  name          = "Router"
  device_type   = "ROUTER"
  dns_server_id = dnsaccount_dns_server.home.server_id
}

resource "dnsaccount_device" "console" {
  name          = "Console"
  device_type   = "GAME_CONSOLE"
  dns_server_id = dnsaccount_dns_server.home.server_id
}

resource "dnsaccount_dedicated_ipv4" "home" {
  device_id = dnsaccount_device.${linkTo}.device_id
}
${extra}`;

  const state = () => suite.project.resources();
  const linkOf = async (ip: string) => (await suite.dashboard.dedicatedIpv4.list()).find((a) => a.ip === ip)?.device_id;

  let ip: string;

  it("an address linked to a device; moved to another in place, the address kept", async () => {
    suite.project.write(config("router"));
    await ok("apply", "-auto-approve");
    ip = String(state().get("dnsaccount_dedicated_ipv4.home")!.ip);
    assert.equal(await linkOf(ip), String(state().get("dnsaccount_device.router")!.device_id));
    assert.equal((await run(["plan", "-detailed-exitcode"])).code, 0);
    suite.project.write(config("console"));
    const planned = await run(["plan", "-detailed-exitcode"]);
    assert.equal(planned.code, 2, planned.out);
    assert.match(planned.out, /Plan: 0 to add, 1 to change, 0 to destroy/);
    assert.doesNotMatch(planned.out, /\b(ip|id)\s+= \(known after apply\)/, "the address stays known");
    await ok("apply", "-auto-approve");
    assert.equal(String(state().get("dnsaccount_dedicated_ipv4.home")!.ip), ip);
    assert.equal(await linkOf(ip), String(state().get("dnsaccount_device.console")!.device_id));
  });

  it("drift: an address unlinked in the dashboard is linked again by apply", async () => {
    await suite.dashboard.devices.unlinkDedicatedIpv4(String(state().get("dnsaccount_device.console")!.device_id), ip);
    assert.equal(await linkOf(ip), undefined);
    const drifted = await run(["plan", "-detailed-exitcode"]);
    assert.equal(drifted.code, 2, drifted.out);
    await ok("apply", "-auto-approve");
    assert.equal(await linkOf(ip), String(state().get("dnsaccount_device.console")!.device_id));
    assert.equal((await run(["plan", "-detailed-exitcode"])).code, 0);
  });

  it("import: an address forgotten by the state is imported by its IP, with no change after", async () => {
    await ok("state", "rm", "dnsaccount_dedicated_ipv4.home");
    suite.project.write(config("console", 3600, `\nimport {\n  to = dnsaccount_dedicated_ipv4.home\n  id = "${ip}"\n}\n`));
    const planned = await run(["plan"]);
    assert.match(planned.out, /Plan: 1 to import, 0 to add, 0 to change, 0 to destroy/, planned.out);
    await ok("apply", "-auto-approve");
    assert.equal((await run(["plan", "-detailed-exitcode"])).code, 0);
  });

  it("device_id taken out of the configuration unlinks the address, in place", async () => {
    suite.project.write(config("console").replace(/resource "dnsaccount_dedicated_ipv4" "home" \{\n  device_id = [^\n]+\n\}/, 'resource "dnsaccount_dedicated_ipv4" "home" {}'));
    const planned = await run(["plan", "-detailed-exitcode"]);
    assert.equal(planned.code, 2, planned.out);
    assert.match(planned.out, /Plan: 0 to add, 1 to change, 0 to destroy/);
    await ok("apply", "-auto-approve");
    assert.equal(await linkOf(ip), undefined, "unlinked");
    assert.equal(String(state().get("dnsaccount_dedicated_ipv4.home")!.ip), ip, "the same address");
    assert.equal((await run(["plan", "-detailed-exitcode"])).code, 0);
  });

  it("a Token: an in-place change; a refresh token revoked out of band is gone, and apply makes a new one; an import is refused", async () => {
    suite.project.write(config("console", 7200));
    const planned = await run(["plan", "-detailed-exitcode"]);
    assert.equal(planned.code, 2, planned.out);
    assert.match(planned.out, /dnsaccount_token\.ci will be updated in-place/);
    await ok("apply", "-auto-approve");
    assert.equal(state().get("dnsaccount_token.ci")!.renew_before_seconds, 7200);

    suite.emu.revokeRefreshToken(String(state().get("dnsaccount_token.ci")!.refresh_token));
    const gone = await run(["plan", "-detailed-exitcode"]);
    assert.equal(gone.code, 2, gone.out);
    assert.match(gone.out, /dnsaccount_token\.ci will be created/);
    await ok("apply", "-auto-approve");
    assert.equal((await run(["plan", "-detailed-exitcode"])).code, 0);

    suite.project.write(config("console", 7200, `\nresource "dnsaccount_token" "other" {}\n`));
    const refused = await run(["import", "dnsaccount_token.other", "tok-anything"]);
    suite.project.write(config("console", 7200));
    assert.notEqual(refused.code, 0);
    assert.match(refused.out.replace(/\s+/g, " "), /A dnsaccount_token cannot be imported.*Declare a dnsaccount_token with refresh_token to adopt one/);
  });

  it("destroy unlinks the address (the service has no release: it stays the account's) and deletes the rest", async () => {
    await ok("destroy", "-auto-approve");
    const held = (await suite.dashboard.dedicatedIpv4.list()).find((a) => a.ip === ip);
    assert.ok(held, "the address stays allocated");
    assert.equal(held.device_id ?? undefined, undefined, "and unlinked");
    assert.deepEqual((await suite.dashboard.devices.list()).map((d) => d.name), []);
    assert.equal(suite.emu.liveRefreshTokens(USER.username), 0);
  });
});
