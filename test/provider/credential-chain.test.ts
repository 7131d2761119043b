import assert from "node:assert/strict";
import { type AccountHost, _accountHost, OPS, OPS_PASSWORD } from "../support/account-host";
import { startProviderHost } from "../support/engine/provider-host";
import { _assertNoSecrets, _cleanEnv } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { CLI, _cli as cli } from "../cli/_cli";
import { _useTempDirs } from "../support/temp";

/**
 * One credential chain for the CLI and the provider (issue 18 §1): after `dns-account login`, with
 * `DNS_ACCOUNT_PROFILE`, `DNS_ACCOUNT_CREDENTIAL_COMMAND` or `eval "$(dns-account env)"`, an account
 * resource in the dynamic-provider host (no stack config) finds the same credentials the CLI does.
 */
describe("the provider finds credentials the way the CLI does", function () {
  const tmp = _useTempDirs();
  this.timeout(180_000);
  let t: AccountHost;
  let dir: string;
  const outputs: string[] = [];

  before(async () => {
    t = await _accountHost();
    dir = tmp("dns-account-chain-");
    const base = { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: t.emu.url };
    for (const profile of ["default", "ci"]) {
      const r = await cli(["login", "--username", OPS, "--password-stdin", "--profile", profile], base, OPS_PASSWORD);
      assert.equal(r.code, 0, r.stderr);
    }
  });

  after(async () => {
    await t?.close();
    _assertNoSecrets(outputs.join("\n"), [OPS_PASSWORD]);
  });

  /** Check and create a DnsServer in a host started with `env` and no stack config; returns the check's failures. */
  async function tryIn(env: NodeJS.ProcessEnv, name: string): Promise<{ property: string; reason: string }[]> {
    const host = await startProviderHost({ programDir: await _installedProgram(), env: _cleanEnv(env) });
    try {
      await host.configure({});
      const urn = t.urn("DnsServer", name);
      const checked = await host.check(urn, {}, { __provider: t.providers.DnsServer, name });
      if (checked.failures.length > 0) return checked.failures;
      const made = await host.create(urn, checked.inputs);
      assert.equal((await t.dashboard.dnsServers.get(made.id)).name, name);
      await host.delete(made.id, urn, made.properties);
      return [];
    } finally {
      outputs.push(host.output());
      await host.close();
    }
  }

  it("the default profile of dns-account login", async () => {
    assert.deepEqual(await tryIn({ DNS_ACCOUNT_CONFIG_DIR: dir }, "from-default"), []);
  });

  it("the profile named by DNS_ACCOUNT_PROFILE, and a precise message when it does not exist", async () => {
    const empty = tmp("dns-account-chain-");
    // Only "ci" exists in this store: the default profile cannot be what answers.
    const ci = await cli(["login", "--username", OPS, "--password-stdin", "--profile", "ci"], { DNS_ACCOUNT_CONFIG_DIR: empty, DNS_ACCOUNT_BASE_URL: t.emu.url }, OPS_PASSWORD);
    assert.equal(ci.code, 0, ci.stderr);
    assert.deepEqual(await tryIn({ DNS_ACCOUNT_CONFIG_DIR: empty, DNS_ACCOUNT_PROFILE: "ci" }, "from-named"), []);
    const missing = await tryIn({ DNS_ACCOUNT_CONFIG_DIR: empty, DNS_ACCOUNT_PROFILE: "nope" }, "nope");
    assert.deepEqual(missing.map((f) => f.property), ["profile"]);
    assert.match(missing[0]!.reason, /DNS_ACCOUNT_PROFILE names "nope"/);
    assert.match(missing[0]!.reason, /dns-account login --profile nope/);
  });

  it("DNS_ACCOUNT_CREDENTIAL_COMMAND (with no default profile)", async () => {
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} token --json --profile ci`;
    const noDefault = tmp("dns-account-chain-");
    // The command reads the store that has "ci"; the host's own store has no default profile.
    const env = { DNS_ACCOUNT_CONFIG_DIR: noDefault, DNS_ACCOUNT_CREDENTIAL_COMMAND: `DNS_ACCOUNT_CONFIG_DIR=${JSON.stringify(dir)} ${command}` };
    assert.deepEqual(await tryIn(env, "from-command"), []);
  });

  it('the exports of eval "$(dns-account env)" (DNS_ACCOUNT_ACCESS_TOKEN)', async () => {
    const r = await cli(["env", "--json", "--profile", "ci"], { DNS_ACCOUNT_CONFIG_DIR: dir });
    assert.equal(r.code, 0, r.stderr);
    const exported = JSON.parse(r.stdout) as Record<string, string>;
    assert.ok(exported.DNS_ACCOUNT_ACCESS_TOKEN);
    const empty = tmp("dns-account-chain-");
    assert.deepEqual(await tryIn({ ...exported, DNS_ACCOUNT_CONFIG_DIR: empty }, "from-env"), []);
  });

  it("nothing anywhere: the failure names credentials and lists what an account resource accepts", async () => {
    const empty = tmp("dns-account-chain-");
    const failures = await tryIn({ DNS_ACCOUNT_CONFIG_DIR: empty }, "none");
    // credentials holds secrets: named in the reason, not as the property whose value the engine prints.
    assert.deepEqual(failures.map((f) => f.property), [""]);
    assert.match(failures[0]!.reason, /^credentials: No credentials/);
    for (const accepted of ["credentials", "dns-account:apiKey", "DNS_ACCOUNT_API_KEY", "DNS_ACCOUNT_PROFILE", "dns-account login"]) {
      assert.ok(failures[0]!.reason.includes(accepted), accepted);
    }
    assert.doesNotMatch(failures[0]!.reason, /resource args|password \(with username\) or refreshToken as/, "not the arguments of a Token");
  });
});
