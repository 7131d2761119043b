import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../../emulator";
import { type Client, createClient } from "../../../sdk";
import { _assertNoSecrets, _cleanEnv, _closeAll } from "../../support/helpers";
import { CLI, _cli as cli } from "../_cli";
import { _useTempDirs } from "../../support/temp";

const USER = { username: "family@example.com", password: "pw-REPORT-6b1f0d3e" };
const KEY = "key-REPORT-1a9c5e77";

/** The questions people ask from the command line (issue 18 §3), through the built bin. */
describe("dns-account status, devices, servers, logs, stats, --debug, env --shell", function () {
  this.timeout(60_000);
  let emu: Emulator;
  let dashboard: Client;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  const stderrs: string[] = [];
  const extraSecrets: string[] = [];
  const run = async (args: string[], extra: NodeJS.ProcessEnv = {}, input?: string) => {
    const r = await cli(args, { ...env, ...extra }, input);
    stderrs.push(r.stderr);
    return r;
  };

  before(async () => {
    emu = await startEmulator({ users: [USER], apiKeys: [{ key: KEY, username: USER.username }], trafficSeed: 42 });
    dashboard = createClient({ baseUrl: emu.url, apiKey: KEY });
    const [def] = await dashboard.dnsServers.list();
    const kids = await dashboard.dnsServers.create({ name: "Kids" });
    await dashboard.devices.create({ name: "Laptop", device_type: "MAC", dns_server_id: def!.id });
    await dashboard.devices.create({ name: "Tablet", device_type: "ANDROID", dns_server_id: kids.id });
    dir = tmp("dns-account-report-");
    env = { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: emu.url };
  });

  /** Every access and refresh token the store holds now (each also kept for the leak scan in after()). */
  const storedTokens = (): string[] => {
    let stored = "";
    try {
      stored = readFileSync(path.join(dir, "credentials.json"), "utf8");
    } catch {
      return [];
    }
    const tokens = [...stored.matchAll(/"(?:refreshToken|accessToken)":\s*"([^"]+)"/g)].map((m) => m[1]!);
    extraSecrets.push(...tokens);
    return tokens;
  };

  after(async () => {
    const secretsSeen = () => {
      storedTokens();
      const secrets = [USER.password, KEY, ...extraSecrets];
      _assertNoSecrets(stderrs.join("\n"), [...secrets, ...secrets.map((s) => s.toLowerCase())]);
    };
    await _closeAll(secretsSeen, () => dashboard?.close(), () => emu?.close());
  });
  // After the hook above, which still reads the store's folder.
  const tmp = _useTempDirs();

  it("devices and servers list ids and names (table and --json)", async () => {
    const devices = await run(["devices"], { DNS_ACCOUNT_API_KEY: KEY });
    assert.equal(devices.code, 0, devices.stderr);
    const live = await dashboard.devices.list();
    for (const d of live) assert.match(devices.stdout, new RegExp(`^${d.id}\\s+${d.name}\\s`, "m"));
    assert.match(devices.stdout, /^ID\s+NAME\s+TYPE\s+DNS SERVER$/m);
    assert.match(devices.stdout, /Tablet\s+ANDROID\s+Kids/);
    assert.deepEqual((JSON.parse((await run(["devices", "--json"], { DNS_ACCOUNT_API_KEY: KEY })).stdout) as { id: string }[]).map((d) => d.id).sort(), live.map((d) => d.id).sort());
    const servers = await run(["servers"], { DNS_ACCOUNT_API_KEY: KEY });
    assert.equal(servers.code, 0);
    for (const s of await dashboard.dnsServers.list()) assert.match(servers.stdout, new RegExp(`^${s.id}\\s+${s.name}`, "m"));
    assert.match(servers.stdout, /Default server\s+yes\s+1/);
  });

  it("status says which credential is active and where it came from, whether it works, and exits 1 once it is revoked", async () => {
    const fromKey = await run(["status"], { DNS_ACCOUNT_API_KEY: KEY });
    assert.equal(fromKey.code, 0, fromKey.stderr);
    assert.match(fromKey.stdout, /^Credential: API key from DNS_ACCOUNT_API_KEY$/m);
    assert.match(fromKey.stdout, /^Works:\s+yes$/m);
    assert.match(fromKey.stdout, /^devices\s+2\s+10$/m);

    assert.equal((await run(["login", "--username", USER.username, "--password-stdin", "--profile", "home"], {}, USER.password)).code, 0);
    const fromProfile = await run(["status", "--json"], { DNS_ACCOUNT_PROFILE: "home" });
    assert.equal(fromProfile.code, 0, fromProfile.stderr);
    const s = JSON.parse(fromProfile.stdout) as { credential: string; source: string; from: string; works: boolean; expiresAt: string; limits: Record<string, { used: number }> };
    assert.deepEqual([s.credential, s.source, s.from, s.works], ["tokens", "profile", 'profile "home"', true]);
    assert.ok(Date.parse(s.expiresAt) > Date.now());
    assert.equal(s.limits.devices!.used, 2);

    const stored = JSON.parse(readFileSync(path.join(dir, "credentials.json"), "utf8")) as { profiles: Record<string, { refreshToken: string }> };
    emu.revokeRefreshToken(stored.profiles.home!.refreshToken);
    const revoked = await run(["status"], { DNS_ACCOUNT_PROFILE: "home" });
    assert.equal(revoked.code, 1, `a revoked credential does not work: ${revoked.stdout} ${revoked.stderr}`);
    assert.match(revoked.stdout, /^Works:\s+no — /m);
  });

  it("logs: a range, a device by name or id, blocked only, a search, a limit paged with cursors (progress on stderr), --json", async () => {
    // 14 days: the emulator makes 1.5 queries per 10 minutes on average (about 3,000 in 14 days, 1,500 ± 40
    // in 7), so the window holds more than the limit whatever the time of day (7 days sometimes held 1,499).
    const all = await run(["logs", "--since", "14d", "--limit", "1500", "--json"], { DNS_ACCOUNT_API_KEY: KEY });
    assert.equal(all.code, 0, all.stderr);
    const items = JSON.parse(all.stdout) as { device_id: string; domain: string; time_millis: number; filtering_info: { filtering_status?: string } }[];
    assert.equal(items.length, 1500, "more than one page of 1000");
    assert.match(all.stderr, /logs: 1500 queries read \(page 2\)/);
    assert.ok(items.every((q, i) => i === 0 || items[i - 1]!.time_millis >= q.time_millis), "newest first");
    assert.ok(items.every((q) => q.time_millis >= Date.now() - 14 * 86_400_000 - 60_000));

    const laptop = (await dashboard.devices.list()).find((d) => d.name === "Laptop")!;
    for (const device of ["Laptop", laptop.id]) {
      const r = await run(["logs", "--since", "1d", "--device", device, "--blocked", "--json"], { DNS_ACCOUNT_API_KEY: KEY });
      const got = JSON.parse(r.stdout) as typeof items;
      assert.ok(got.length > 0, device);
      assert.ok(got.every((q) => q.device_id === laptop.id && /BLOCKED/.test(q.filtering_info.filtering_status ?? "")), device);
    }
    const found = JSON.parse((await run(["logs", "--since", "1d", "--search", "ads", "--json"], { DNS_ACCOUNT_API_KEY: KEY })).stdout) as typeof items;
    assert.ok(found.length > 0 && found.every((q) => q.domain.includes("ads")));
    const text = await run(["logs", "--since", "1d", "--limit", "3"], { DNS_ACCOUNT_API_KEY: KEY });
    assert.equal(text.stdout.trim().split("\n").length, 4, "a header and three rows");
    assert.match(text.stdout, /^TIME \(UTC\)\s+DEVICE\s+STATUS\s+TYPE\s+DOMAIN$/m);
    const unknown = await run(["logs", "--device", "Fridge"], { DNS_ACCOUNT_API_KEY: KEY });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--device: no device has that id or name/);
    assert.equal((await run(["logs", "--since", "forever"], { DNS_ACCOUNT_API_KEY: KEY })).code, 2);
    assert.equal((await run(["logs", "--since", "1h", "--from", "2026-01-01T00:00:00Z"], { DNS_ACCOUNT_API_KEY: KEY })).code, 2);
  });

  it("stats: top domains, top blocked domains, queries by device, country or company (table and --json)", async () => {
    const domains = JSON.parse((await run(["stats", "--since", "1d", "--json"], { DNS_ACCOUNT_API_KEY: KEY })).stdout) as { name: string; queries: number; blocked: number }[];
    assert.ok(domains.length > 0 && domains.length <= 10);
    const blocked = JSON.parse((await run(["stats", "--since", "1d", "--blocked", "--limit", "5", "--json"], { DNS_ACCOUNT_API_KEY: KEY })).stdout) as typeof domains;
    assert.ok(blocked.length > 0 && blocked.every((r, i) => r.blocked > 0 && (i === 0 || blocked[i - 1]!.blocked >= r.blocked)), "ranked by blocked");
    const byDevice = await run(["stats", "--by", "devices", "--since", "1d"], { DNS_ACCOUNT_API_KEY: KEY });
    assert.match(byDevice.stdout, /^DEVICE\s+ID\s+QUERIES\s+BLOCKED\s+COMPANIES$/m);
    assert.match(byDevice.stdout, /^(Laptop|Tablet)\s+\S+\s+\d+/m, "devices by name, then id");
    for (const by of ["countries", "companies"]) assert.equal((await run(["stats", "--by", by], { DNS_ACCOUNT_API_KEY: KEY })).code, 0, by);
    assert.equal((await run(["stats", "--by", "planets"], { DNS_ACCOUNT_API_KEY: KEY })).code, 2);
  });

  it("--debug and DNS_ACCOUNT_DEBUG=1 trace each exchange (method, path, status, time) with every secret redacted", async () => {
    const login = await run(["login", "--username", USER.username, "--password-stdin", "--profile", "traced", "--debug"], {}, USER.password);
    assert.equal(login.code, 0, login.stderr);
    assert.match(login.stderr, /^debug: → POST http:\/\/127\.0\.0\.1:\d+\/oapi\/v1\/oauth_token$/m);
    assert.match(login.stderr, /^debug: ← 200 POST http:\/\/127\.0\.0\.1:\d+\/oapi\/v1\/oauth_token \(\d+ ms\)$/m);
    const status = await run(["status"], { DNS_ACCOUNT_PROFILE: "traced", DNS_ACCOUNT_DEBUG: "1" });
    assert.match(status.stderr, /^debug: ← 200 GET http:\/\/127\.0\.0\.1:\d+\/oapi\/v1\/account\/limits \(\d+ ms\)$/m);
    // The tokens the traced requests carried (Bearer header, revoke body or query), read before logout removes them.
    const tokens = storedTokens();
    assert.ok(tokens.length >= 2, "the login stored an access and a refresh token");
    const logout = await run(["logout", "--profile", "traced", "--debug"]);
    assert.match(logout.stderr, /^debug: ← 200 POST .*\/oapi\/v1\/revoke_token/m);
    const keyed = await run(["devices", "--debug"], { DNS_ACCOUNT_API_KEY: KEY });
    assert.match(keyed.stderr, /^debug: ← 200 GET .*\/oapi\/v2\/devices/m);

    // What these runs traced, searched here (not only in after()): no header, and no secret in any case.
    const traced = [login, status, logout, keyed].map((r) => r.stderr).join("\n");
    assert.doesNotMatch(traced, /authori[sz]ation|bearer\s|apikey\s|cookie/i, "no Authorization header, name or value");
    const secrets = [USER.password, KEY, ...tokens];
    _assertNoSecrets(traced, [...new Set(secrets.flatMap((s) => [s, s.toLowerCase(), s.toUpperCase(), encodeURIComponent(s)]))]);
    const quiet = await run(["devices"], { DNS_ACCOUNT_API_KEY: KEY });
    assert.doesNotMatch(quiet.stderr, /debug:/, "no trace without --debug");
  });

  it("env --shell bash, fish and powershell", async () => {
    const e = { DNS_ACCOUNT_API_KEY: KEY };
    const bash = await run(["env", "--shell", "bash"], e);
    assert.equal(execFileSync("bash", ["-c", `eval "$1"; printf %s "$DNS_ACCOUNT_API_KEY"`, "_", bash.stdout]).toString(), KEY);
    assert.match((await run(["env", "--shell", "fish"], e)).stdout, /^set -gx DNS_ACCOUNT_API_KEY 'key-REPORT-1a9c5e77';$/m);
    assert.match((await run(["env", "--shell", "powershell"], e)).stdout, /^\$env:DNS_ACCOUNT_API_KEY = 'key-REPORT-1a9c5e77'$/m);
    assert.equal((await run(["env", "--shell", "tcsh"], e)).code, 2);
  });

  it("a reader that closes the pipe early (| head) ends the command quietly, without a stack trace", async () => {
    const child = spawn(process.execPath, [CLI, "status"], { env: _cleanEnv({ ...env, DNS_ACCOUNT_API_KEY: KEY }), stdio: ["ignore", "pipe", "pipe"] });
    // Closed before the command has written anything: every write it makes meets a closed pipe.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("close", (c) => resolve(c)));
    assert.equal(stderr, "", "no EPIPE stack trace");
    assert.equal(code, 0);
  });

  it("every new command has help", async () => {
    for (const command of ["status", "devices", "servers", "logs", "stats", "export"]) {
      const r = await run(["help", command]);
      assert.equal(r.code, 0, command);
      assert.match(r.stdout, new RegExp(`^Usage: dns-account ${command}`), command);
    }
  });
});
