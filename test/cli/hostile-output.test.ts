import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type AccountSeedInput, accountSeedOf, type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _cli as cli } from "./_cli";

const USER = { username: "family@example.com", password: "pw-HOSTILE-4e1d9a20" };
const KEY = "key-HOSTILE-7c3b2f19";

/** What must never reach the terminal raw: controls, format (bidi) characters, line/paragraph separators. */
const RAW = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
/** `RAW`, but a line ends in a newline. */
const rawIn = (text: string): boolean => RAW.test(text.replace(/\n/g, ""));

/** Names the service could send: a right-to-left override, an escape sequence, a separator, zero-width characters, an isolate. */
const NAMES = ["Phone\u202Egnp.exe", "Red\u001b[31m\u001b]0;title\u0007", "Line\u2028Break", "Zero\u200bWidth\ufeff", "Iso\u2067late\u2069"];
const ESCAPED = ["Phone\\u202Egnp.exe", "Red\\u001B[31m\\u001B]0;title\\u0007", "Line\\u2028Break", "Zero\\u200BWidth\\uFEFF", "Iso\\u2067late\\u2069"];

/** The CLI as a user on a terminal sees it, from an account whose names were chosen by someone hostile. */
describe("dns-account output: a hostile service's strings cannot steer the terminal; messages speak the CLI's words", function () {
  this.timeout(60_000);
  let emu: Emulator;
  let dashboard: Client;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const servers: Server[] = [];

  /** A token endpoint that answers every grant with `body`. */
  const tokenServer = async (body: object): Promise<string> => {
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  before(async () => {
    emu = await startEmulator({ users: [USER], apiKeys: [{ key: KEY, username: USER.username }], trafficSeed: 7 });
    dashboard = createClient({ baseUrl: emu.url, apiKey: KEY });
    const [def] = await dashboard.dnsServers.list();
    await dashboard.dnsServers.create({ name: `Kids\u202Esdik` });
    for (const name of [...NAMES, "Phone", "Phone"]) await dashboard.devices.create({ name, device_type: "ANDROID", dns_server_id: def!.id });
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-hostile-"));
    env = { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_API_KEY: KEY };
  });

  after(async () => {
    try {
      await dashboard?.close();
      await emu?.close();
      for (const s of servers) await new Promise((resolve) => s.close(resolve));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("devices, servers, stats and logs tables show control, bidi and format characters escaped (\\u202E)", async () => {
    for (const args of [["devices"], ["servers"], ["stats", "--by", "devices", "--since", "7d", "--limit", "100"], ["logs", "--since", "7d", "--limit", "500"]]) {
      const r = await cli(args, env);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
      assert.ok(!rawIn(r.stdout), `${args.join(" ")} printed a raw control or format character`);
    }
    const devices = (await cli(["devices"], env)).stdout;
    for (const name of ESCAPED) assert.ok(devices.includes(name), `${name} in\n${devices}`);
    assert.ok((await cli(["servers"], env)).stdout.includes("Kids\\u202Esdik"));
  });

  it("--json output escapes them too and parses back to the service's exact names", async () => {
    for (const args of [["devices", "--json"], ["servers", "--json"], ["stats", "--by", "devices", "--json", "--limit", "100"], ["logs", "--json", "--limit", "50"], ["status", "--json"]]) {
      const r = await cli(args, env);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
      assert.ok(!rawIn(r.stdout), args.join(" "));
      JSON.parse(r.stdout);
    }
    const names = (JSON.parse((await cli(["devices", "--json"], env)).stdout) as { name: string }[]).map((d) => d.name);
    for (const name of NAMES) assert.ok(names.includes(name), JSON.stringify(name));
  });

  it("export (import file and TypeScript program) writes the names' control and format characters escaped, in their JSON-quoted strings", async () => {
    const file = await cli(["export"], env);
    assert.equal(file.code, 0, file.stderr);
    assert.ok(!rawIn(file.stdout));
    JSON.parse(file.stdout);
    const program = await cli(["export", "--format", "typescript"], env);
    assert.equal(program.code, 0, program.stderr);
    assert.ok(!rawIn(program.stdout), "no raw bidi override in the program's source (Trojan Source)");
    assert.ok(program.stdout.includes('"Phone\\u202Egnp.exe"'), program.stdout);
    assert.ok(program.stdout.includes('"Red\\u001b[31m\\u001b]0;title\\u0007"'));
  });

  it("export --format seed writes C1 controls, bidi marks and line separators escaped, and the seed still serves the same names", async () => {
    // Every character of each class JSON.stringify leaves raw, spread over names of at most 64 characters.
    const c1 = Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i)).join("");
    const servers = [`DEL\u007f C1 ${c1.slice(0, 16)}`, `C1 ${c1.slice(16)}`];
    const devices = ["Embed\u202a\u202b\u202c\u202d\u202e", "Isolate\u2066\u2067\u2068\u2069", "Mark\u200e\u200f\u061c", "Separator\u2028\u2029", "CSI\u009b2J OSC\u009d0;t\u009c"];
    const rules = ["||bidi\u202e.example^", "! C1 \u0085 and \u2028 in a comment"];
    const hostile = await startEmulator({ apiKeys: [{ key: KEY, username: USER.username }], users: [USER] });
    let served: Emulator | undefined;
    const client = createClient({ baseUrl: hostile.url, apiKey: KEY });
    try {
      const [def] = await client.dnsServers.list();
      for (const name of servers) {
        const s = await client.dnsServers.create({ name });
        await client.dnsServers.updateSettings(s.id, { user_rules_settings: { enabled: true, rules } });
      }
      for (const name of devices) await client.devices.create({ name, device_type: "ANDROID", dns_server_id: def!.id });

      const r = await cli(["export", "--format", "seed"], { ...env, DNS_ACCOUNT_BASE_URL: hostile.url });
      assert.equal(r.code, 0, r.stderr);
      const raw = [...r.stdout.replace(/\n/g, "")].filter((c) => RAW.test(c)).map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`);
      assert.deepEqual(raw, [], "no raw control, bidi or separator character in the seed");
      assert.ok(r.stdout.includes("Embed\\u202A\\u202B\\u202C\\u202D\\u202E") && r.stdout.includes("Separator\\u2028\\u2029") && r.stdout.includes("\\u0085"), r.stdout);

      // The same seed, character for character, as the SDK reads the account, and an emulator serves it.
      const seed = JSON.parse(r.stdout) as AccountSeedInput;
      assert.deepEqual(seed, await accountSeedOf(client));
      served = await startEmulator({ apiKeys: [{ key: KEY, username: USER.username }], users: [USER], seed });
      const copy = createClient({ baseUrl: served.url, apiKey: KEY });
      try {
        const names = (await copy.dnsServers.list()).map((s) => s.name);
        for (const name of servers) assert.ok(names.includes(name), JSON.stringify(name));
        assert.deepEqual((await copy.devices.list()).map((d) => d.name).sort(), [...devices].sort());
        const kept = await copy.dnsServers.get((await copy.dnsServers.list()).find((s) => s.name === servers[0])!.id);
        assert.deepEqual(kept.settings.user_rules_settings.rules, rules);
      } finally {
        await copy.close();
      }
    } finally {
      await client.close();
      await hostile.close();
      await served?.close();
    }
  });

  it("stats --by devices tells two devices of the same name apart by their id (table and --json)", async () => {
    const phones = (await dashboard.devices.list()).filter((d) => d.name === "Phone").map((d) => d.id);
    assert.equal(phones.length, 2);
    const r = await cli(["stats", "--by", "devices", "--since", "7d", "--limit", "100"], env);
    assert.match(r.stdout, /^DEVICE\s+ID\s+QUERIES\s+BLOCKED\s+COMPANIES$/m);
    for (const id of phones) assert.match(r.stdout, new RegExp(`^Phone\\s+${id}\\s+\\d+\\s+\\d+\\s+\\d+$`, "m"));
    const rows = JSON.parse((await cli(["stats", "--by", "devices", "--since", "7d", "--limit", "100", "--json"], env)).stdout) as { name: string; id: string }[];
    assert.deepEqual(rows.filter((row) => row.name === "Phone").map((row) => row.id).sort(), [...phones].sort());
  });

  it("status prints a base URL's control and bidi characters escaped, and says the CLI refuses it", async () => {
    const url = `${emu.url}/\u202Emoc.elgoog`;
    const r = await cli(["status"], { ...env, DNS_ACCOUNT_BASE_URL: url });
    assert.equal(r.code, 1);
    assert.ok(!rawIn(r.stdout), r.stdout);
    assert.match(r.stdout, /^Service: {4}http:\/\/127\.0\.0\.1:\d+\/\\u202Emoc\.elgoog$/m);
    assert.match(r.stdout, /^Works: {6}no — invalid_config: DNS_ACCOUNT_BASE_URL must not contain control or format characters$/m);
  });

  it("a credential command's baseUrl with a control character is refused, never printed by status", async () => {
    const file = path.join(dir, "cmd.json");
    writeFileSync(file, JSON.stringify({ accessToken: "fine", baseUrl: "https://evil.example/\u001b]8;;https://x\u0007" }));
    const r = await cli(["status"], { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_CREDENTIAL_COMMAND: `cat ${JSON.stringify(file)}` });
    assert.equal(r.code, 1);
    assert.ok(!rawIn(r.stdout));
    assert.match(r.stdout, /Works: {6}no — credential_process: The credential command's "baseUrl" must be a non-empty URL with no control or format characters/);
    assert.doesNotMatch(r.stdout + r.stderr, /evil/);
  });

  it("token refuses an access token from the service with escape sequences: an error naming the field, nothing printed", async () => {
    const tokens = ["SECRET\u001b]52;c;cHduZWQ=\u0007VALUE", "SECRET\nVALUE", "SECRET\u202EVALUE", "SECRET\u2019VALUE"];
    for (const [i, accessToken] of tokens.entries()) {
      const url = await tokenServer({ access_token: accessToken, token_type: "bearer", expires_in: 3600, refresh_token: "r" });
      // Every command that prints a token, with the first; `token` with the others.
      for (const args of i === 0 ? [["token"], ["token", "--json"], ["exec-credential"], ["env"]] : [["token"]]) {
        const r = await cli(args, { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: url, DNS_ACCOUNT_REFRESH_TOKEN: "refresh-me" });
        assert.equal(r.code, 1, `${args.join(" ")} ${JSON.stringify(accessToken)}`);
        assert.equal(r.stdout, "");
        assert.match(r.stderr, /^dns-account: protocol: "access_token" must be a non-empty string of printable ASCII/);
        assert.ok(!/SECRET|VALUE/.test(r.stderr), "the value is not echoed");
      }
    }
  });

  it("an error message holding a control or bidi character shows it escaped", async () => {
    const r = await cli(["status", "--profile", "x\u202Ey\u001b[2J"], { DNS_ACCOUNT_CONFIG_DIR: dir });
    assert.equal(r.code, 1);
    assert.ok(!rawIn(r.stderr), r.stderr);
    assert.match(r.stderr, /x\\u202Ey\\u001B\[2J/);
  });

  describe("messages name the flags and variables the user typed, not the SDK's options", () => {
    const SDK_WORDS = /allowInsecureHttp|mfaToken|"baseUrl"|\bbaseUrl\b|\bapiKey\b|\brefreshToken\b|\bpassword or\b/;

    it("a plain http:// URL: --allow-insecure-http, in errors and in status", async () => {
      const status = await cli(["status"], { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_API_KEY: KEY, DNS_ACCOUNT_BASE_URL: "http://emulator.example:8787" });
      assert.match(status.stdout, /^Works: {6}no — invalid_config: DNS_ACCOUNT_BASE_URL uses http:\/\/ for a non-loopback host; use https:\/\/ or pass --allow-insecure-http \(or set DNS_ACCOUNT_ALLOW_INSECURE_HTTP=1\)$/m);
      for (const args of [["token"], ["devices"], ["env"], ["exec-credential"]]) {
        for (const credentials of [{ DNS_ACCOUNT_REFRESH_TOKEN: "r" }, { DNS_ACCOUNT_API_KEY: KEY }, { DNS_ACCOUNT_USERNAME: "u", DNS_ACCOUNT_PASSWORD: "p" }]) {
          const r = await cli(args, { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: "http://emulator.example:8787", ...credentials });
          assert.equal(r.code, 1, args.join(" "));
          assert.match(r.stderr, /DNS_ACCOUNT_BASE_URL uses http:\/\/ .*pass --allow-insecure-http/, `${args.join(" ")}: ${r.stderr}`);
          assert.doesNotMatch(r.stderr, SDK_WORDS);
        }
      }
      const login = await cli(["login", "--base-url", "http://emulator.example:8787", "--username", "u", "--password-stdin"], { DNS_ACCOUNT_CONFIG_DIR: dir }, "pw");
      assert.match(login.stderr, /^dns-account: invalid_config: --base-url uses http:\/\/ for a non-loopback host; use https:\/\/ or pass --allow-insecure-http/);
      const ftp = await cli(["login", "--base-url", "ftp://example.com", "--username", "u", "--password-stdin"], { DNS_ACCOUNT_CONFIG_DIR: dir }, "pw");
      assert.match(ftp.stderr, /^dns-account: invalid_config: --base-url must use https:\/\//);
    });

    it("an MFA account in a pipeline: DNS_ACCOUNT_MFA_TOKEN, not mfaToken", async () => {
      const mfa = await startEmulator({ users: [{ username: "mfa@example.com", password: "pw-mfa-1", mfa: true }] });
      try {
        const r = await cli(["token"], { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: mfa.url, DNS_ACCOUNT_USERNAME: "mfa@example.com", DNS_ACCOUNT_PASSWORD: "pw-mfa-1" });
        assert.equal(r.code, 1);
        assert.match(r.stderr, /^dns-account: mfa_required: .*set DNS_ACCOUNT_MFA_TOKEN/);
        assert.doesNotMatch(r.stderr, SDK_WORDS);
      } finally {
        await mfa.close();
      }
    });

    it("a password and a refresh token both in the environment: the variables are named", async () => {
      const r = await cli(["token"], { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_USERNAME: "u", DNS_ACCOUNT_PASSWORD: "p", DNS_ACCOUNT_REFRESH_TOKEN: "r" });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /DNS_ACCOUNT_PASSWORD or DNS_ACCOUNT_REFRESH_TOKEN/);
    });
  });
});
