import assert from "node:assert/strict";
import { refreshToken } from "../../sdk";
import { _secretsOutsideSensitive, _tofuSuite } from "../support/tofu-project";

const USER = { username: "tofu-rotation@example.com", password: "pw-TOFU-ROTATION-7c41e2a9" };
const API_KEY = "key-TOFU-ROTATION-dashboard-2b6f";

/**
 * Issue 34 under the real `tofu`: a Token (the provider's password login) whose refresh token a DNS server
 * and a device use as their `credentials`, a dedicated IPv4 address linked to the device, data sources,
 * and names built from another resource's id (unknown until it exists). Rotating the Token by a keepers
 * change with `create_before_destroy` makes the new token first, moves the dependents to it (an update
 * that calls nothing), and revokes the old one; refresh, a no-change plan, an update and destroy then all
 * work. The password and every refresh token stay out of what tofu prints.
 */
describe("tofu: Token rotation with dependents, a dedicated address and data sources under the real tofu", function () {
  this.timeout(600_000);
  const refreshTokens: string[] = [];
  const suite = _tofuSuite({
    prefix: "dns-account-tofu-rotation-",
    emulator: { users: [USER] },
    dashboard: { username: USER.username, apiKey: API_KEY },
    env: (emu) => ({ DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_PASSWORD: USER.password }),
    secrets: () => [USER.password, ...refreshTokens],
    // The state holds the refresh tokens on purpose, under sensitive attributes: the test checks it with _secretsOutsideSensitive.
    searchState: false,
  });
  const { ok, plan } = suite;

  const config = (rotation: string, serverName = "CI only") => `
provider "dnsaccount" {
  username = "${USER.username}"
}

resource "dnsaccount_token" "ci" {
  keepers = { rotation = "${rotation}" }
  lifecycle {
    create_before_destroy = true
  }
}

resource "dnsaccount_dns_server" "ci_only" {
  name = "${serverName}"
  settings {
    blocked_services = [for s in data.dnsaccount_web_services.all.web_services : s.id if s.id == "tiktok"]
  }
  credentials {
    base_url      = dnsaccount_token.ci.base_url
    refresh_token = dnsaccount_token.ci.refresh_token
  }
}

resource "dnsaccount_device" "router" {
  name          = "Router of \${dnsaccount_dns_server.ci_only.server_id}"
  device_type   = "ROUTER"
  dns_server_id = dnsaccount_dns_server.ci_only.server_id
  credentials {
    base_url      = dnsaccount_token.ci.base_url
    refresh_token = dnsaccount_token.ci.refresh_token
  }
}

resource "dnsaccount_dedicated_ipv4" "router" {
  device_id = dnsaccount_device.router.device_id
}

data "dnsaccount_web_services" "all" {}
data "dnsaccount_account_limits" "mine" {}

output "devices_limit" {
  value = data.dnsaccount_account_limits.mine.devices.limit
}
`;

  const tokenOf = () => String(suite.project.resources().get("dnsaccount_token.ci")!.refresh_token);

  let serverId: string;
  let deviceId: string;
  let ip: string;

  it("apply: the Token, a server and device on its credentials (names from ids unknown at plan), a linked address; data sources read", async () => {
    suite.project.write(config("1"));
    const planned = await plan();
    assert.equal(planned.code, 2, planned.out);
    assert.match(planned.out, /name\s+= \(known after apply\)/, "the device's name waits for the server's id");
    const applied = await ok("apply", "-auto-approve");
    assert.match(applied, /Apply complete! Resources: 4 added/);
    const state = suite.project.resources();
    refreshTokens.push(tokenOf());
    serverId = String(state.get("dnsaccount_dns_server.ci_only")!.server_id);
    deviceId = String(state.get("dnsaccount_device.router")!.device_id);
    ip = String(state.get("dnsaccount_dedicated_ipv4.router")!.ip);
    assert.equal((await suite.dashboard.devices.get(deviceId)).name, `Router of ${serverId}`);
    assert.deepEqual((await suite.dashboard.dnsServers.get(serverId)).settings.parental_control_settings?.blocked_services?.filter((s) => s.enabled).map((s) => s.id), ["tiktok"]);
    assert.ok((await suite.dashboard.dedicatedIpv4.list()).some((a) => a.ip === ip && a.device_id === deviceId));
    assert.match((await suite.project.ok(["output", "devices_limit"])).trim(), /^\d+$/);
    const again = await plan();
    assert.equal(again.code, 0, again.out);
    assert.equal(suite.emu.liveRefreshTokens(USER.username), 1, "the Token's refresh token; every process's own login was revoked");
  });

  it("a keepers change rotates the Token new-before-old; the dependents move to the new token and the old one is revoked", async () => {
    const old = tokenOf();
    suite.project.write(config("2"));
    const planned = await plan();
    assert.equal(planned.code, 2, planned.out);
    assert.match(planned.out, /dnsaccount_token\.ci must be replaced/);
    assert.match(planned.out, /create replacement and then destroy/);
    assert.match(planned.out, /Plan: 1 to add, 2 to change, 1 to destroy/);
    await ok("apply", "-auto-approve");
    const fresh = tokenOf();
    refreshTokens.push(fresh);
    assert.notEqual(fresh, old);
    // The state: no password at all; the tokens and DoH passwords only under attributes marked sensitive.
    const stateText = suite.project.stateText();
    assert.ok(!stateText.includes(USER.password) && !stateText.toLowerCase().includes(USER.password.toLowerCase()), "the password is in the state");
    const access = String(suite.project.resources().get("dnsaccount_token.ci")!.access_token);
    const withAuth = (suite.project.resources().get("dnsaccount_device.router")!.dns_addresses_with_auth as { dns_over_https_with_auth_url: string }).dns_over_https_with_auth_url;
    const dohPassword = decodeURIComponent(new URL(withAuth).password);
    assert.ok(fresh.length > 8 && access.length > 8 && dohPassword.length > 4);
    assert.deepEqual(_secretsOutsideSensitive(stateText, [fresh, access, dohPassword]), []);
    for (const r of ["dnsaccount_dns_server.ci_only", "dnsaccount_device.router"]) {
      assert.equal((suite.project.resources().get(r)!.credentials as { refresh_token: string }).refresh_token, fresh, r);
    }
    // Refresh (every plan refreshes), a plan with no changes, an update and destroy all work on the new token.
    const after = await plan();
    assert.equal(after.code, 0, after.out);
    suite.project.write(config("2", "CI only, renamed"));
    await ok("apply", "-auto-approve");
    assert.equal((await suite.dashboard.dnsServers.get(serverId)).name, "CI only, renamed");
    await assert.rejects(refreshToken({ baseUrl: suite.emu.url, refreshToken: old }), { name: "InvalidGrantError" }, "the old refresh token is revoked");
    assert.equal(suite.emu.liveRefreshTokens(USER.username), 1, "only the new Token's refresh token is alive");
  });

  it("destroy removes everything, the Token's refresh token revoked", async () => {
    const out = await ok("destroy", "-auto-approve");
    assert.match(out, /Destroy complete! Resources: 4 destroyed/);
    assert.ok(!(await suite.dashboard.dnsServers.list()).some((s) => s.id === serverId));
    assert.ok(!(await suite.dashboard.devices.list()).some((d) => d.id === deviceId));
    assert.equal(suite.emu.liveRefreshTokens(USER.username), 0);
  });
});
