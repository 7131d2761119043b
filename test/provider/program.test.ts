import assert from "node:assert/strict";
import { writeFileSync, mkdirSync } from "node:fs";
import { type Emulator, startEmulator } from "../../emulator";
import { startProviderHost } from "../support/engine/provider-host";
import path from "node:path";
import { issueToken, refreshToken, TokenStore } from "../../sdk";
import { _assertNoSecrets, _cleanEnv } from "../support/helpers";
import { _installedProgram, _runInProgram, MOCKS_PRELUDE, RECORD_REGISTRATIONS } from "../support/program";
import { _useTempDirs } from "../support/temp";

const PASSWORD = "pw-PROGRAM-4e9a1c";

/** Program-side behaviour with pulumi.runtime.setMocks, run in the installed program folder. */
describe("Pulumi program side (setMocks, installed copy)", function () {
  const tmp = _useTempDirs();
  this.timeout(120_000);
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ users: [{ username: "ops@example.com", password: PASSWORD }] });
  });
  after(async () => emu?.close());

  it("sends password, mfaToken and refreshToken as secrets and asks the engine to keep accessToken and refreshToken secret", async () => {
    const { stdout, stderr } = await _runInProgram(
      "secrets",
      `${MOCKS_PRELUDE}${RECORD_REGISTRATIONS}const { Token } = require("pulumi-dns-account");
const t = new Token("ci", { username: "ops@example.com", password: process.env.P, mfaToken: process.env.M, refreshToken: process.env.R, keepers: { a: "b" } });
settle(t.id).then(() => {
  const r = sent.find((x) => x.type.endsWith("dns-account:Token"));
  const SIG = "4dabf18193072939515e22adb298388d";
  const isSecret = (v) => typeof v === "object" && v !== null && SIG in v;
  console.log(JSON.stringify({
    type: r.type,
    secretOutputs: r.secretOutputs.sort(),
    secretInputs: Object.keys(r.object).filter((k) => isSecret(r.object[k])).sort(),
    clearInputs: JSON.stringify(Object.fromEntries(Object.entries(r.object).filter(([, v]) => !isSecret(v)))),
  }));
});`,
      { P: PASSWORD, M: "864209", R: "rt-PROGRAM-0f3e" },
    );
    const report = JSON.parse(stdout) as { type: string; secretOutputs: string[]; secretInputs: string[]; clearInputs: string };
    assert.equal(report.type, "pulumi-nodejs:dynamic/dns-account:Token");
    assert.deepEqual(report.secretOutputs, ["accessToken", "refreshToken"]);
    assert.deepEqual(report.secretInputs, ["mfaToken", "password", "refreshToken"]);
    _assertNoSecrets(report.clearInputs, [PASSWORD, "864209", "rt-PROGRAM-0f3e"]);
    _assertNoSecrets(stderr, [PASSWORD, "864209", "rt-PROGRAM-0f3e"]);
  });

  it("ten getAccessToken calls and ten clients with the same credentials cause one login", async () => {
    emu.resetStats();
    const { stdout, stderr } = await _runInProgram(
      "ten",
      `${MOCKS_PRELUDE}
const { getAccessToken, getClient } = require("pulumi-dns-account");
(async () => {
  const tokens = await Promise.all(Array.from({ length: 10 }, () => settle(getAccessToken())));
  const secret = await getAccessToken().isSecret;
  const clients = await Promise.all(Array.from({ length: 10 }, () => getClient()));
  const limits = await Promise.all(clients.map((c) => c.account.limits()));
  console.log(JSON.stringify({ distinct: new Set(tokens).size, sameClient: clients.every((c) => c === clients[0]), limits: limits.length, secret }));
})();`,
      { DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_USERNAME: "ops@example.com", DNS_ACCOUNT_PASSWORD: PASSWORD },
    );
    assert.deepEqual(JSON.parse(stdout), { distinct: 1, sameClient: true, limits: 10, secret: true });
    assert.equal(emu.stats.passwordGrants, 1, "one login");
    assert.equal(emu.stats.refreshGrants, 1, "and, at exit, the one refresh grant that proves its token revoked");
    assert.equal(emu.stats.apiCalls, 10);
    _assertNoSecrets(stdout + stderr, [PASSWORD]);
  });

  it("takes credentials from args, then stack config, then the environment", async () => {
    emu.resetStats();
    const { stdout } = await _runInProgram(
      "precedence",
      `${MOCKS_PRELUDE}
pulumi.runtime.setAllConfig({ "dns-account:username": "ops@example.com", "dns-account:password": process.env.P, "dns-account:baseUrl": process.env.U }, ["dns-account:password"]);
const { getClient } = require("pulumi-dns-account");
(async () => {
  const fromConfig = await (await getClient()).account.limits();
  let argsError;
  try { await getClient({ baseUrl: process.env.U, username: "nobody@example.com", password: "wrong" }).then((c) => c.account.limits()); } catch (e) { argsError = e.code; }
  console.log(JSON.stringify({ config: !!fromConfig.devices, argsError }));
})();`,
      { P: PASSWORD, U: emu.url, DNS_ACCOUNT_BASE_URL: "http://127.0.0.1:1", DNS_ACCOUNT_PASSWORD: "env-is-not-used" },
    );
    assert.deepEqual(JSON.parse(stdout), { config: true, argsError: "invalid_credentials" });
  });

  it("getAccessToken uses the profile named by dns-account:profile (before the environment)", async () => {
    const dir = tmp("dns-account-program-profile-");
    const issued = await issueToken({ baseUrl: emu.url, username: "ops@example.com", password: PASSWORD });
    await new TokenStore({ dir }).put("ci", { baseUrl: emu.url, refreshToken: issued.refreshToken });
    emu.resetStats();
    const { stdout } = await _runInProgram(
      "profile",
      `${MOCKS_PRELUDE}
pulumi.runtime.setAllConfig({ "dns-account:profile": "ci" });
const { getAccessToken } = require("pulumi-dns-account");
settle(getAccessToken()).then((t) => console.log(JSON.stringify({ length: t.length })));`,
      { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_USERNAME: "x@example.com", DNS_ACCOUNT_PASSWORD: "env-loses" },
    );
    assert.equal((JSON.parse(stdout) as { length: number }).length, 27);
    assert.equal(emu.stats.refreshGrants, 1);
    assert.equal(emu.stats.passwordGrants, 0);
  });

  it("Token.client() gives a configured client from the token's outputs", async () => {
    const issued = await issueToken({ baseUrl: emu.url, username: "ops@example.com", password: PASSWORD });
    const { stdout } = await _runInProgram(
      "token-client",
      `
const pulumi = require("@pulumi/pulumi");
pulumi.runtime.setMocks({
  newResource: (args) => ({ id: "tok-1", state: { ...args.inputs, baseUrl: process.env.U, refreshToken: process.env.R, accessToken: "x" } }),
  call: () => ({}),
}, "p", "s", false);
const { Token } = require("pulumi-dns-account");
const t = new Token("ci", { refreshToken: process.env.R, baseUrl: process.env.U });
t.client().apply(async (c) => console.log(JSON.stringify({ servers: (await c.dnsServers.list()).length })));`,
      { U: emu.url, R: issued.refreshToken },
    );
    assert.deepEqual(JSON.parse(stdout), { servers: 1 });
  });

  it("fails clearly when there are no credentials anywhere", async () => {
    const { stdout } = await _runInProgram(
      "none",
      `${MOCKS_PRELUDE}
const { getClient, getFilterLists } = require("pulumi-dns-account");
const shown = (e) => ({ code: e.code, field: e.field, message: e.message });
Promise.all([getClient().catch(shown), getFilterLists().catch(shown)]).then((errs) => console.log(JSON.stringify(errs)));`,
    );
    const errs = JSON.parse(stdout) as { code: string; field: string; message: string }[];
    // getClient blames its password argument; a lookup its one credential argument, `credentials`.
    for (const [err, field] of errs.map((e, i) => [e, i === 0 ? "password" : "credentials"] as const)) {
      assert.equal(err.code, "invalid_config");
      assert.equal(err.field, field);
      assert.match(err.message, /No credentials/);
      // getClient and the lookups take an API key: the message says so (issue 22 §6).
      assert.match(err.message, /apiKey/);
      assert.match(err.message, /DNS_ACCOUNT_API_KEY/);
    }
  });

  describe("program runs leave no live refresh token they minted (revoked at exit)", () => {
    const OPS = "ops@example.com";

    it("three runs with a password (getAccessToken and getClient) leave the count of live refresh tokens unchanged", async () => {
      const before = emu.liveRefreshTokens(OPS);
      emu.resetStats();
      for (let run = 0; run < 3; run++) {
        const { stdout } = await _runInProgram(
          "password-run",
          `${MOCKS_PRELUDE}
const { getAccessToken, getClient } = require("pulumi-dns-account");
(async () => {
  const token = await settle(getAccessToken());
  const limits = await (await getClient()).account.limits();
  console.log(JSON.stringify({ token: token.length > 0, limits: !!limits.devices }));
})();`,
          { DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_USERNAME: OPS, DNS_ACCOUNT_PASSWORD: PASSWORD },
        );
        assert.deepEqual(JSON.parse(stdout), { token: true, limits: true });
      }
      assert.equal(emu.stats.passwordGrants, 3, "each run logged in once");
      assert.equal(emu.liveRefreshTokens(OPS), before);
    });

    it("a refresh token the program was given is never revoked", async () => {
      const issued = await issueToken({ baseUrl: emu.url, username: OPS, password: PASSWORD });
      const { stdout } = await _runInProgram(
        "refresh-run",
        `${MOCKS_PRELUDE}
const { getClient } = require("pulumi-dns-account");
getClient().then(async (c) => console.log(JSON.stringify({ limits: !!(await c.account.limits()).devices })));`,
        { DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_REFRESH_TOKEN: issued.refreshToken },
      );
      assert.deepEqual(JSON.parse(stdout), { limits: true });
      assert.ok((await refreshToken({ baseUrl: emu.url, refreshToken: issued.refreshToken })).accessToken, "the given refresh token is still live");
    });

    it("getClient inside a dynamic provider: the host revokes what it minted when the engine stops it", async () => {
      const program = await _installedProgram();
      mkdirSync(path.join(program, "scripts"), { recursive: true });
      const file = path.join(program, "scripts", "limits-provider-exit.js");
      writeFileSync(
        file,
        `const { getClient } = require("pulumi-dns-account");
exports.create = async (inputs) => {
  const limits = await (await getClient({ baseUrl: inputs.baseUrl })).account.limits();
  return { id: "limits", outs: { devices: limits.devices.limit } };
};`,
      );
      const before = emu.liveRefreshTokens(OPS);
      const host = await startProviderHost({ programDir: program, env: _cleanEnv({ DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_USERNAME: OPS, DNS_ACCOUNT_PASSWORD: PASSWORD }) });
      try {
        await host.configure({});
        const urn = "urn:pulumi:dev::dns-account-test::pulumi-nodejs:dynamic:Resource::limits";
        const res = await host.create(urn, { __provider: `exports.handler = () => require(${JSON.stringify(file)});`, baseUrl: emu.url });
        assert.equal(res.properties.devices, 10);
        assert.equal(emu.liveRefreshTokens(OPS), before + 1);
      } finally {
        await host.close();
      }
      assert.equal(emu.liveRefreshTokens(OPS), before);
      _assertNoSecrets(host.output(), [PASSWORD]);
    });
  });

  describe("getClient takes Inputs like getAccessToken (issue 13)", () => {
    it("accepts Outputs and secrets, and names a field unknown during preview", async () => {
      const { stdout } = await _runInProgram(
        "client-inputs",
        `${MOCKS_PRELUDE}
const { getClient } = require("pulumi-dns-account");
(async () => {
  const client = await getClient({ baseUrl: pulumi.output(process.env.U), username: Promise.resolve("ops@example.com"), password: pulumi.secret(process.env.P) });
  const limits = await client.account.limits();
  let unknown;
  try { await getClient({ baseUrl: process.env.U, username: "ops@example.com", password: pulumi.output(pulumi.unknown) }); } catch (e) { unknown = { code: e.code, field: e.field }; }
  console.log(JSON.stringify({ limits: !!limits.devices, unknown }));
})();`,
        { U: emu.url, P: PASSWORD },
      );
      assert.deepEqual(JSON.parse(stdout), { limits: true, unknown: { code: "invalid_config", field: "password" } });
    });
  });
});
