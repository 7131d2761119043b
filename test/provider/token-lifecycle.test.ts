import assert from "node:assert/strict";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Emulator, startEmulator } from "../../emulator";
import { type ProviderHost, startProviderHost } from "../support/engine/provider-host";
import { InvalidGrantError, issueToken, refreshToken, TokenStore } from "../../sdk";
import { _assertNoSecrets, _cleanEnv, _closeAll, _rejects } from "../support/helpers";
import { _installedProgram, _runInProgram, MOCKS_PRELUDE } from "../support/program";
import { _useTempDirs } from "../support/temp";

// Distinctive secrets, searched for in everything the hosts print.
const PASSWORD = "pw-LIFE-5e1f0a9c";
const OTHER_PASSWORD = "pw-LIFEOTHER-77d2";
const MFA_PASSWORD = "pw-LIFEMFA-c4e8b1";
const MFA_CODES = ["402913", "402914"];
const URN = "urn:pulumi:dev::dns-account-test::pulumi-nodejs:dynamic/dns-account:Token::ci";
const OPS = "ops@example.com";

/** A loopback proxy in front of the emulator that rewrites successful password-grant bodies. */
async function rewritingProxy(target: string, rewrite: (body: Record<string, unknown>) => Record<string, unknown>): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const upstream = httpRequest(new URL(req.url ?? "/", target), { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (up) => {
        const parts: Buffer[] = [];
        up.on("data", (c: Buffer) => parts.push(c));
        up.on("end", () => {
          let out = Buffer.concat(parts);
          const isLogin = req.url?.includes("oauth_token") && body.toString().includes("password=");
          if (isLogin && up.statusCode === 200) out = Buffer.from(JSON.stringify(rewrite(JSON.parse(out.toString()) as Record<string, unknown>)));
          res.writeHead(up.statusCode ?? 502, { "content-type": up.headers["content-type"] ?? "application/json", "content-length": out.length });
          res.end(out);
        });
      });
      upstream.on("error", () => res.destroy());
      upstream.end(body);
    });
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A base URL where nothing listens any more (a server gone for good). */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe("Token lifecycle keeps every promise (rotation, adoption, refresh) through the host", function () {
  const tmp = _useTempDirs();
  this.timeout(180_000);
  let emu: Emulator;
  let program: string;
  let provider: string;
  let pw: ProviderHost;
  let bare: ProviderHost;
  const hosts: ProviderHost[] = [];
  const secrets: string[] = [PASSWORD, OTHER_PASSWORD, MFA_PASSWORD, ...MFA_CODES];
  const keep = (props: Record<string, unknown>): Record<string, unknown> => {
    secrets.push(props.accessToken as string, props.refreshToken as string);
    return props;
  };
  const host = async (config: Record<string, string>, env: NodeJS.ProcessEnv = {}): Promise<ProviderHost> => {
    const h = await startProviderHost({ programDir: program, env: _cleanEnv(env) });
    hosts.push(h);
    await h.configure(config, Object.keys(config).filter((k) => /password|mfaToken|refreshToken/.test(k)));
    return h;
  };
  const live = async (token: string): Promise<boolean> => {
    try {
      await refreshToken({ baseUrl: emu.url, refreshToken: token });
      return true;
    } catch (err) {
      if (err instanceof InvalidGrantError) return false;
      throw err;
    }
  };
  const mint = async (username = OPS, password = PASSWORD): Promise<string> => {
    const t = await issueToken({ baseUrl: emu.url, username, password });
    secrets.push(t.accessToken, t.refreshToken);
    return t.refreshToken;
  };

  before(async () => {
    emu = await startEmulator({
      tokenLifetimeSeconds: 7200,
      users: [
        { username: OPS, password: PASSWORD },
        { username: "other@example.com", password: OTHER_PASSWORD },
        { username: "mfa@example.com", password: MFA_PASSWORD, mfa: [...MFA_CODES] },
      ],
    });
    program = await _installedProgram();
    const { stdout } = await _runInProgram(
      "serialize-lifecycle",
      `${MOCKS_PRELUDE}
const { Token } = require("pulumi-dns-account");
const t = new Token("ci", {});
// The id settles once the mock has recorded the registration: wait for that, not for a fixed window.
settle(t.id).then(() => console.log(JSON.stringify(resources.find((r) => r.inputs.__provider).inputs.__provider)));`,
    );
    provider = JSON.parse(stdout) as string;
    pw = await host({ "dns-account:baseUrl": emu.url, "dns-account:username": OPS, "dns-account:password": PASSWORD });
    bare = await host({});
  });

  after(async () => {
    await _closeAll(() => { for (const h of hosts) _assertNoSecrets(h.output(), secrets); }, ...hosts.map((h) => () => h.close()), () => emu?.close());
  });

  describe("§1 adoption and rotation never kill a live token", () => {
    it("a refresh token adopted from args, stack config or the environment is not revoked on delete by default", async () => {
      const fromArgs = await mint();
      const a = await bare.create(URN, { __provider: provider, baseUrl: emu.url, refreshToken: fromArgs });
      keep(a.properties);
      assert.equal(a.properties.revokeOnDelete, false);
      await bare.delete(a.id, URN, a.properties);
      assert.ok(await live(fromArgs), "args");

      const fromConfig = await mint();
      const cfg = await host({ "dns-account:baseUrl": emu.url, "dns-account:refreshToken": fromConfig });
      const c = await cfg.create(URN, { __provider: provider });
      keep(c.properties);
      assert.equal(c.properties.revokeOnDelete, false);
      await cfg.delete(c.id, URN, c.properties);
      assert.ok(await live(fromConfig), "stack config: the config still uses it");

      const fromEnv = await mint();
      const envHost = await host({}, { DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_REFRESH_TOKEN: fromEnv });
      const e = await envHost.create(URN, { __provider: provider });
      keep(e.properties);
      await envHost.delete(e.id, URN, e.properties);
      assert.ok(await live(fromEnv), "environment");

      // A password login is the Token's own: still revoked on delete.
      const own = keep((await pw.create(URN, { __provider: provider })).properties);
      assert.equal(own.revokeOnDelete, true);
      await pw.delete("own", URN, own);
      assert.equal(await live(own.refreshToken as string), false);
    });

    it("two Tokens adopting the same refresh token never revoke each other's", async () => {
      const shared = await mint();
      const args = { __provider: provider, baseUrl: emu.url, refreshToken: shared };
      const one = keep((await bare.create(URN, args)).properties);
      const two = keep((await bare.create(URN, args)).properties);
      await bare.delete("one", URN, one);
      assert.ok(await live(shared));
      assert.ok((await bare.read("two", URN, two)).id, "the other Token is still there after a refresh");
    });

    it("keepers or rotationPeriodSeconds on a Token that adopts a refresh token fail check, naming the property", async () => {
      const token = await mint();
      const dir = tmp("dns-account-lifecycle-");
      await new TokenStore({ dir }).put("ci", { baseUrl: emu.url, username: OPS, refreshToken: token });
      const cfg = await host({ "dns-account:baseUrl": emu.url, "dns-account:refreshToken": token });
      const prof = await host({ "dns-account:profile": "ci" }, { DNS_ACCOUNT_CONFIG_DIR: dir });
      const cases: [ProviderHost, Record<string, unknown>][] = [
        [bare, { baseUrl: emu.url, refreshToken: token }],
        [cfg, {}],
        [prof, {}],
        [bare, { credentialCommand: "true" }],
      ];
      for (const [h, creds] of cases) {
        for (const [property, value] of [["keepers", { q: "1" }], ["rotationPeriodSeconds", 86_400]] as const) {
          const { failures } = await h.check(URN, {}, { __provider: provider, ...creds, [property]: value });
          assert.deepEqual(failures.map((f) => f.property), [property], JSON.stringify(creds));
          assert.match(failures[0]!.reason, /rotation needs a password login/);
        }
      }
      // A password login rotates as before.
      assert.deepEqual((await pw.check(URN, {}, { __provider: provider, keepers: { q: "1" }, rotationPeriodSeconds: 86_400 })).failures, []);
    });

    it("an adopted Token stored with the old default (revokeOnDelete true) is set to false by an update without the server", async () => {
      const token = await mint();
      const created = keep((await bare.create(URN, { __provider: provider, baseUrl: emu.url, refreshToken: token })).properties);
      const old = { ...created, revokeOnDelete: true };
      const news = { __provider: provider, baseUrl: emu.url, refreshToken: token };
      assert.equal((await bare.diff("id", URN, old, news)).changes, "some");
      emu.resetStats();
      const { properties } = await bare.update("id", URN, old, news);
      assert.equal(properties.revokeOnDelete, false);
      assert.equal(emu.stats.requests, 0);
      await bare.delete("id", URN, properties);
      assert.ok(await live(token));
    });

    it("a two-factor account: a replacement with a spent or missing code fails saying to set a fresh dns-account:mfaToken and run again", async () => {
      const mfa = await host({ "dns-account:baseUrl": emu.url, "dns-account:username": "mfa@example.com", "dns-account:password": MFA_PASSWORD, "dns-account:mfaToken": MFA_CODES[0]! });
      const first = keep((await mfa.create(URN, { __provider: provider, keepers: { q: "1" } })).properties);
      const live0 = emu.liveRefreshTokens("mfa@example.com");
      // The engine creates the replacement before deleting the old token; the config's code is spent.
      const err = await _rejects(mfa.create(URN, { __provider: provider, keepers: { q: "2" } }));
      assert.match(err.message, /invalid_credentials/);
      assert.match(err.message, /set a fresh code with `pulumi config set --secret dns-account:mfaToken <code>`.*and run again/);
      _assertNoSecrets(err.message, secrets);
      assert.equal(emu.liveRefreshTokens("mfa@example.com"), live0);
      assert.ok(await live(first.refreshToken as string), "the old token is untouched");

      const noCode = await host({ "dns-account:baseUrl": emu.url, "dns-account:username": "mfa@example.com", "dns-account:password": MFA_PASSWORD });
      const err2 = await _rejects(noCode.create(URN, { __provider: provider }));
      assert.match(err2.message, /mfa_required/);
      assert.match(err2.message, /dns-account:mfaToken.*run again/);

      // A fresh code in the config: the replacement goes through.
      const fresh = await host({ "dns-account:baseUrl": emu.url, "dns-account:username": "mfa@example.com", "dns-account:password": MFA_PASSWORD, "dns-account:mfaToken": MFA_CODES[1]! });
      keep((await fresh.create(URN, { __provider: provider, keepers: { q: "2" } })).properties);
    });

    for (const [label, rewrite] of [
      ["a malformed response (expires_in not a number)", (b: Record<string, unknown>) => ({ ...b, expires_in: "soon" })],
      ["an absurd response (expires_in past the last date)", (b: Record<string, unknown>) => ({ ...b, expires_in: 1e300 })],
      ["a response without an access token", (b: Record<string, unknown>) => ({ ...b, access_token: undefined })],
    ] as const) {
      it(`a create that fails after the service issued a refresh token revokes it: ${label}`, async () => {
        const proxy = await rewritingProxy(emu.url, rewrite);
        try {
          const before = emu.liveRefreshTokens(OPS);
          emu.resetStats();
          const err = await _rejects(bare.create(URN, { __provider: provider, baseUrl: proxy.url, username: OPS, password: PASSWORD }));
          assert.match(err.message, /Creating the token failed: protocol: /);
          assert.equal(emu.stats.passwordGrants, 1);
          assert.equal(emu.liveRefreshTokens(OPS), before, "no live token outside every state");
          _assertNoSecrets(err.message, secrets);
        } finally {
          proxy.server.closeAllConnections();
          await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
        }
      });
    }

    it("a settings-only change needs no server outside the renewal window: a stack whose server is gone sets revokeOnDelete false and is destroyed", async () => {
      const created = keep((await pw.create(URN, { __provider: provider, renewBeforeSeconds: 600 })).properties);
      const gone: Record<string, unknown> = { ...created, baseUrl: await deadUrl() };
      for (const change of [{ revokeOnDelete: false }, { renewBeforeSeconds: 300 }, { rotationPeriodSeconds: 30 * 86_400 }]) {
        const news = { __provider: provider, baseUrl: gone.baseUrl, renewBeforeSeconds: 600, ...change };
        assert.deepEqual(await pw.diff("id", URN, gone, news), { changes: "some", replaces: [], deleteBeforeReplace: false }, JSON.stringify(change));
        const { properties } = await pw.update("id", URN, gone, news);
        assert.equal(properties.accessToken, gone.accessToken, "the stored access token is kept");
        for (const [k, v] of Object.entries(change)) assert.equal(properties[k], v);
        if (change.revokeOnDelete === false) await pw.delete("id", URN, properties);
      }
      // Inside the window the update still renews (and needs the server).
      const soon: Record<string, unknown> = { ...created, renewedAt: new Date(Date.now() - 7000_000).toISOString(), expiresAt: new Date(Date.now() + 200_000).toISOString() };
      const { properties } = await pw.update("id", URN, soon, { __provider: provider, renewBeforeSeconds: 600 });
      keep(properties);
      assert.notEqual(properties.accessToken, soon.accessToken);
      assert.equal(properties.refreshToken, soon.refreshToken);
    });
  });

  describe("§2 pulumi refresh neither loses state nor churns", () => {
    it("only the documented invalid_grant answer reports the resource gone; other 401/403, 5xx and resets are errors", async () => {
      const state = keep((await pw.create(URN, { __provider: provider })).properties);
      const faults = [
        { kind: "status", status: 401, body: "" },
        { kind: "status", status: 401, body: "<html><body>Sign in</body></html>", contentType: "text/html" },
        { kind: "status", status: 401, body: JSON.stringify({ error: "unauthorized" }) },
        { kind: "status", status: 403, body: JSON.stringify({ error: "unauthorized", error_code: "unauthorized" }) },
        { kind: "status", status: 503, body: "" },
        { kind: "reset" },
      ] as const;
      for (const fault of faults) {
        emu.inject({ ...fault, path: "/oapi/v1/oauth_token", count: 20 });
        try {
          const err = await _rejects(pw.read("tok-1", URN, state));
          assert.match(err.message, /Reading the token failed/, JSON.stringify(fault));
        } finally {
          emu.clearFaults();
        }
      }
      assert.equal((await pw.read("tok-1", URN, state)).id, "tok-1");
      emu.revokeRefreshToken(state.refreshToken as string);
      assert.equal((await pw.read("tok-1", URN, state)).id, "", "a definite revocation");
    });

    it("refresh of a healthy Token outside its renewal window changes no output, so refresh settles", async () => {
      const state = keep((await pw.create(URN, { __provider: provider })).properties);
      emu.resetStats();
      const once = await pw.read("tok-2", URN, state);
      const twice = await pw.read("tok-2", URN, once.properties);
      assert.deepEqual(once.properties, state);
      assert.deepEqual(twice.properties, state);
      assert.equal(emu.stats.refreshGrants, 2, "the refresh token is still verified");
      // Inside the window, refresh renews once; then it settles.
      const soon: Record<string, unknown> = { ...state, renewedAt: new Date(Date.now() - 7000_000).toISOString(), expiresAt: new Date(Date.now() + 200_000).toISOString() };
      const renewed = await pw.read("tok-2", URN, soon);
      keep(renewed.properties);
      assert.notEqual(renewed.properties.accessToken, soon.accessToken);
      assert.deepEqual((await pw.read("tok-2", URN, renewed.properties)).properties, renewed.properties);
    });
  });

  describe("profile and credentialCommand as Token args (issue 13)", () => {
    it("two Tokens in one program use two accounts from two profiles, without passwords in args", async () => {
      const dir = tmp("dns-account-profiles-");
      const store = new TokenStore({ dir });
      await store.put("ops", { baseUrl: emu.url, username: OPS, refreshToken: await mint() });
      await store.put("other", { baseUrl: emu.url, username: "other@example.com", refreshToken: await mint("other@example.com", OTHER_PASSWORD) });
      const h = await host({}, { DNS_ACCOUNT_CONFIG_DIR: dir });
      const results = [];
      for (const profile of ["ops", "other"]) {
        assert.deepEqual((await h.check(URN, {}, { __provider: provider, profile })).failures, []);
        const res = await h.create(URN, { __provider: provider, profile });
        keep(res.properties);
        results.push(res.properties);
      }
      assert.deepEqual(results.map((r) => [r.username, r.mode, r.revokeOnDelete]), [[OPS, "refreshToken", false], ["other@example.com", "refreshToken", false]]);
      const d = await h.diff("id", URN, results[0]!, { __provider: provider, profile: "other" });
      assert.deepEqual(d.replaces, ["refreshToken"]);
      const { failures } = await h.check(URN, {}, { __provider: provider, profile: "absent" });
      assert.deepEqual(failures.map((f) => f.property), ["profile"]);

      const token = await mint("other@example.com", OTHER_PASSWORD);
      const res = await bare.create(URN, { __provider: provider, credentialCommand: `echo '{"refreshToken":"${token}","baseUrl":"${emu.url}"}'` });
      keep(res.properties);
      assert.equal(res.properties.refreshToken, token);
      assert.equal(res.properties.revokeOnDelete, false);
    });
  });
});
