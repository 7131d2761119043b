import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _cli as cli } from "../cli/_cli";
import { _closeAll } from "../support/helpers";
import { _tofuSuite } from "../support/tofu-project";

const ALICE = { username: "alice-tofu@example.com", password: "pw-TOFU-CHAIN-A-4e8d21" };
const BOB = { username: "bob-tofu@example.com", password: "pw-TOFU-CHAIN-B-91c3f7" };
const KEY_A = "key-TOFU-CHAIN-A-0f3a6c";
const KEY_B = "key-TOFU-CHAIN-B-7d52e8";

/**
 * Issue 34: the provider block resolves credentials through the same chain as the CLI and Pulumi, under
 * the real `tofu`: no credentials anywhere fails in tofu's words; the CLI's default profile
 * (`dns-account login`) serves an empty provider block; two accounts are two aliased provider blocks, each
 * with its own profile. Each object lands in its own account, and no password, key or token is printed.
 */
describe("tofu: the credential chain (environment, CLI profiles, provider aliases) under the real tofu", function () {
  this.timeout(600_000);
  let b: Emulator;
  let dashB: Client;
  let configDir: string;
  const suite = _tofuSuite({
    prefix: "dns-account-tofu-chain-",
    emulator: { users: [ALICE] },
    dashboard: { username: ALICE.username, apiKey: KEY_A },
    // The CLI's profiles, in a folder of the suite's (logged in by the `before` below, once both emulators run), are the only credentials.
    env: () => ({ DNS_ACCOUNT_CONFIG_DIR: (configDir = suite.tmp("dns-account-tofu-chain-cli-")) }),
    secrets: () => [ALICE.password, BOB.password, KEY_A, KEY_B],
  });
  const { run } = suite;

  before(async () => {
    const a = suite.emu;
    b = await startEmulator({ users: [BOB], apiKeys: [{ key: KEY_B, username: BOB.username }] });
    dashB = createClient({ baseUrl: b.url, apiKey: KEY_B });
    for (const [profile, user, emu] of [["default", ALICE, a], ["kids", BOB, b]] as const) {
      const login = await cli(["login", "--profile", profile, "--username", user.username, "--password-stdin", "--base-url", emu.url], { DNS_ACCOUNT_CONFIG_DIR: configDir }, user.password);
      assert.equal(login.code, 0, login.stderr);
    }
  });

  after(async () => {
    await _closeAll(
      () => dashB?.close(),
      () => b?.close(),
    );
  });

  it("no credentials anywhere: the plan fails on the resource, listing where it looked in tofu's words", async () => {
    suite.project.write(`provider "dnsaccount" {}\n\nresource "dnsaccount_dns_server" "home" {\n  name = "Home"\n}\n`);
    const r = await run(["plan"], { DNS_ACCOUNT_CONFIG_DIR: suite.tmp("dns-account-tofu-chain-empty-") });
    assert.equal(r.code, 1, r.out);
    const said = r.out.replace(/\s+/g, " ");
    assert.match(said, /No credentials/);
    assert.match(said, /a credentials block .*set them in the provider block \(api_key; username with password; refresh_token; profile; credential_command\)/);
    assert.match(said, /DNS_ACCOUNT_API_KEY/);
    assert.match(said, /dns-account login/);
    assert.doesNotMatch(said, /dns-account:|apiKey|refreshToken|credentialCommand|stack config/, "tofu's words, not Pulumi's");
  });

  it("an empty provider block uses the CLI's default profile; aliased blocks with a profile each reach two accounts", async () => {
    suite.project.write(`provider "dnsaccount" {}

provider "dnsaccount" {
  alias   = "kids"
  profile = "kids"
}

resource "dnsaccount_dns_server" "home" {
  name = "Home of Alice"
}

resource "dnsaccount_dns_server" "kids" {
  provider = dnsaccount.kids
  name     = "Kids of Bob"
}
`);
    const applied = await run(["apply", "-auto-approve"]);
    assert.equal(applied.code, 0, applied.out);
    const state = suite.project.resources();
    const home = String(state.get("dnsaccount_dns_server.home")!.server_id);
    const kids = String(state.get("dnsaccount_dns_server.kids")!.server_id);
    assert.equal((await suite.dashboard.dnsServers.get(home)).name, "Home of Alice");
    assert.equal((await dashB.dnsServers.get(kids)).name, "Kids of Bob");
    assert.ok(!(await suite.dashboard.dnsServers.list()).some((s) => s.name === "Kids of Bob"), "nothing of Bob's at Alice's");
    assert.equal((await run(["plan", "-detailed-exitcode"])).code, 0);
    const destroyed = await run(["destroy", "-auto-approve"]);
    assert.equal(destroyed.code, 0, destroyed.out);
    assert.ok(!(await dashB.dnsServers.list()).some((s) => s.id === kids));
  });
});
