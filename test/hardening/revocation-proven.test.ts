import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../../emulator";
import { TokenStore } from "../../sdk";
import { startProviderHost } from "../support/engine/provider-host";
import { _cleanEnv } from "../support/helpers";
import { _installedProgram, _runInProgram, MOCKS_PRELUDE } from "../support/program";
import { _cli } from "../cli/_cli";
import { _useTempDirs } from "../support/temp";

// Every path that revokes — the CLI's logout, a Token's delete, the revocation when a program exits —
// against a server that reads the token only from the query and answers 200 to a body it ignored: each
// must leave the token dead (proven by the refresh grant), and put it in a URL only after the body failed.

const USER = "revoke@example.com";
const PASSWORD = "pw-REVOKE-7d1c3e";

describe("revocation is proven on every path (a server that ignores the body and answers 200)", function () {
  const tmp = _useTempDirs();
  this.timeout(120_000);
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ users: [{ username: USER, password: PASSWORD }], revokeReads: "query", revokeMissingOk: true });
  });
  after(async () => emu?.close());

  /** The revoke requests since the last reset: the first never has the token in its URL. */
  const revokes = () => emu.requests.filter((r) => r.path === "/oapi/v1/revoke_token");

  it("dns-account logout", async () => {
    const dir = tmp("dns-account-revoke-");
    const env = { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_USERNAME: USER };
    const login = await _cli(["login", "--password-stdin"], env, PASSWORD);
    assert.equal(login.code, 0, login.stderr);
    assert.equal(emu.liveRefreshTokens(USER), 1);
    emu.resetStats();
    const out = await _cli(["logout"], env);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(emu.liveRefreshTokens(USER), 0, "the token is dead");
    assert.deepEqual(revokes()[0]!.query, {});
    assert.equal(revokes().length, 2);
    assert.equal(await new TokenStore({ dir }).profile("default"), undefined);
  });

  it("a Token's delete through the dynamic-provider host", async () => {
    const program = await _installedProgram();
    const { stdout } = await _runInProgram(
      "serialize-revoke",
      `${MOCKS_PRELUDE}
const { Token } = require("pulumi-dns-account");
new Token("ci", {});
registered((r) => r.inputs.__provider).then((r) => console.log(JSON.stringify(r.inputs.__provider)));`,
    );
    const provider = JSON.parse(stdout) as string;
    const host = await startProviderHost({ programDir: program, env: _cleanEnv() });
    try {
      await host.configure({ "dns-account:baseUrl": emu.url, "dns-account:username": USER, "dns-account:password": PASSWORD }, ["dns-account:password"]);
      const urn = "urn:pulumi:dev::dns-account-test::pulumi-nodejs:dynamic/dns-account:Token::ci";
      const { id, properties } = await host.create(urn, { __provider: provider });
      assert.equal(emu.liveRefreshTokens(USER), 1);
      emu.resetStats();
      await host.delete(id, urn, properties);
      assert.equal(emu.liveRefreshTokens(USER), 0);
      assert.deepEqual(revokes()[0]!.query, {});
    } finally {
      await host.close();
    }
  });

  it("the revocation when a program that logged in with a password exits", async () => {
    const before = emu.liveRefreshTokens(USER);
    const { stdout } = await _runInProgram(
      "exit-revoke",
      `${MOCKS_PRELUDE}
const { getClient } = require("pulumi-dns-account");
(async () => console.log(JSON.stringify({ devices: typeof (await (await getClient()).account.limits()).devices })))();`,
      { DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_USERNAME: USER, DNS_ACCOUNT_PASSWORD: PASSWORD },
    );
    assert.deepEqual(JSON.parse(stdout), { devices: "object" });
    assert.equal(emu.liveRefreshTokens(USER), before, "the program's login left no live token");
  });
});
