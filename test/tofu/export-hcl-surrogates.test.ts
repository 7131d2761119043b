import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { _cli } from "../cli/_cli";
import { _tofuSuite } from "../support/tofu-project";

const API_KEY = "key-TOFU-EXPORT-SURROGATE-5d1e0c7b";

/**
 * A lone UTF-16 surrogate, which JSON can carry and UTF-8 cannot, in a server's name, a user rule and a
 * device's name: the export writes it as U+FFFD, and so must the state the provider gives tofu (it wrote
 * invalid UTF-8, so tofu planned a change and apply rewrote the account). Imported, nothing changes.
 */
describe("tofu: dns-account export --format hcl of names with lone surrogates plans no change", function () {
  this.timeout(600_000);
  const suite = _tofuSuite({
    prefix: "dns-account-tofu-surrogate-",
    install: "dev_overrides",
    dashboard: { username: "user@example.com", apiKey: API_KEY },
    env: (emu) => ({ DNS_ACCOUNT_API_KEY: API_KEY, DNS_ACCOUNT_BASE_URL: emu.url }),
    secrets: () => [API_KEY],
  });

  it("imports them with no change, writes nothing to the account, and plans no change after", async () => {
    const dashboard = suite.dashboard;
    const server = await dashboard.dnsServers.create({ name: "Lone \ud800 name" });
    await dashboard.dnsServers.updateSettings(server.id, { user_rules_settings: { rules: ["! lone \udc00"] } });
    const device = await dashboard.devices.create({ name: "dev \ud83d", device_type: "IOS", dns_server_id: server.id });
    const seen = async () => [(await dashboard.dnsServers.get(server.id)).name, (await dashboard.dnsServers.get(server.id)).settings.user_rules_settings?.rules, (await dashboard.devices.get(device.id)).name];
    const before = await seen();
    assert.deepEqual(before, ["Lone \ud800 name", ["! lone \udc00"], "dev \ud83d"], "the service holds the lone surrogates");

    const r = await _cli(["export", "--format", "hcl"], { DNS_ACCOUNT_API_KEY: API_KEY, DNS_ACCOUNT_BASE_URL: suite.emu.url });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes('"Lone \\uFFFD name"') && r.stdout.includes('"dev \\uFFFD"'), r.stdout);
    writeFileSync(path.join(suite.project.dir, "main.tf"), suite.record(r.stdout));
    const plan = await suite.plan();
    assert.match(plan.out, /Plan: 3 to import, 0 to add, 0 to change, 0 to destroy\./, plan.out);
    const applied = await suite.ok("apply", "-auto-approve");
    assert.match(applied, /Resources: 3 imported, 0 added, 0 changed, 0 destroyed/, applied);
    assert.deepEqual(await seen(), before, "nothing was written to the account");
    const state = suite.project.resources();
    assert.equal(state.get("dnsaccount_device.dev")?.name, "dev \ufffd");
    const after = await suite.plan();
    assert.equal(after.code, 0, after.out);
  });
});
