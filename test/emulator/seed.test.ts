import assert from "node:assert/strict";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { accountSeedOf, type AccountSeedInput, type EmulatorOptions, startEmulator } from "../../emulator";
import { writeFileAtomic } from "../../emulator/seed/file";
import { type Client, ConfigError, createClient } from "../../sdk";
import { _errorText, _rejects } from "../support/helpers";

const NOW = Date.UTC(2026, 10, 1, 12);
const KEY = "emulator-api-key-user";

/** A small realistic account: two servers (rules on both), three devices, two addresses, a query log. */
const SEED: AccountSeedInput = {
  version: 1,
  synthetic_traffic: false,
  limits: { dedicated_ipv4: 3 },
  dns_servers: [
    { id: "kids0001", name: "Kids", settings: { user_rules_settings: { enabled: true, rules: ["||games.example^", "||video.example^"] }, block_ttl_seconds: 300 } },
    { id: "home0001", name: "Home", default: true, settings: { user_rules_settings: { enabled: true, rules: ["||ads.example^", "@@||ok.example^"] }, protection_enabled: true } },
  ],
  devices: [
    { id: "laptop01", name: "Laptop", device_type: "MAC", dns_server_id: "home0001" },
    { id: "tablet01", name: "Tablet", device_type: "ANDROID", dns_server_id: "kids0001", settings: { protection_enabled: false } },
    { id: "router01", name: "Router", device_type: "ROUTER" },
  ],
  dedicated_ipv4: [{ ip: "198.51.100.7", device_id: "router01" }, { ip: "198.51.100.8" }],
  query_log: [
    { time_millis: NOW - 60_000, domain: "ads.example", device_id: "laptop01", filtering_info: { filtering_status: "REQUEST_BLOCKED", filtering_type: "USER_FILTER" }, dns_proto_type: "DOH" },
    { time_iso: new Date(NOW - 120_000).toISOString(), domain: "games.example", device_id: "tablet01", response_country: "DE", company_id: "Games Inc" },
  ],
};

/** Starts an emulator, runs `fn` with an API-key client, closes both. */
async function withEmulator<T>(options: EmulatorOptions, fn: (client: Client) => Promise<T>): Promise<T> {
  const emu = await startEmulator({ now: () => NOW, ...options });
  const client = createClient({ baseUrl: emu.url, apiKey: KEY });
  try {
    return await fn(client);
  } finally {
    await client.close();
    await emu.close();
  }
}

/** What a user sees of an account through the SDK (ids, names, rules from each server, links, log). */
async function view(client: Client) {
  const servers = await client.dnsServers.list();
  const full = await Promise.all(servers.map((s) => client.dnsServers.get(s.id)));
  const log = await client.queryLog.get({ time_from_millis: NOW - 86_400_000, time_to_millis: NOW, limit: 100 });
  return {
    servers: full.map((s) => [s.id, s.name, s.default, s.settings.user_rules_settings.rules, s.settings.block_ttl_seconds]).sort(),
    devices: (await client.devices.list()).map((d) => [d.id, d.name, d.device_type, d.dns_server_id, d.settings.protection_enabled]).sort(),
    addresses: (await client.dedicatedIpv4.list()).map((a) => [a.ip, a.device_id ?? null]).sort(),
    log: log.items.map((q) => [q.time_millis, q.domain, q.device_id, q.dns_server_id, q.filtering_info.filtering_status, q.dns_proto_type ?? null, q.response_country ?? null]),
  };
}

describe("emulator: seeded accounts (--seed) and state kept across restarts (--state)", function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-seed-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a seed's servers, rules, devices, addresses and query log are what the SDK lists", async () => {
    const seen = await withEmulator({ seed: SEED }, view);
    assert.deepEqual(seen, {
      servers: [
        ["home0001", "Home", true, ["||ads.example^", "@@||ok.example^"], 10],
        ["kids0001", "Kids", false, ["||games.example^", "||video.example^"], 300],
      ],
      devices: [
        ["laptop01", "Laptop", "MAC", "home0001", true],
        ["router01", "Router", "ROUTER", "home0001", true],
        ["tablet01", "Tablet", "ANDROID", "kids0001", false],
      ],
      addresses: [["198.51.100.7", "router01"], ["198.51.100.8", null]],
      log: [
        [NOW - 60_000, "ads.example", "laptop01", "home0001", "REQUEST_BLOCKED", "DOH", null],
        [NOW - 120_000, "games.example", "tablet01", "kids0001", "NONE", null, "DE"],
      ],
    });
    // The other users' accounts are as before: one default server, nothing else.
    const emu = await startEmulator({ seed: SEED });
    const other = createClient({ baseUrl: emu.url, apiKey: "emulator-api-key-mfa" });
    try {
      assert.equal((await other.dnsServers.list()).length, 1);
      assert.equal((await other.devices.list()).length, 0);
    } finally {
      await other.close();
      await emu.close();
    }
  });

  it("export as a seed, then seed a new emulator with it: the same account (accountSeedOf round trip)", async () => {
    const exported = await withEmulator({ seed: SEED }, accountSeedOf);
    const again = await withEmulator({ seed: { ...exported, synthetic_traffic: false } }, async (client) => [await view(client), await accountSeedOf(client)] as const);
    const original = await withEmulator({ seed: SEED }, view);
    assert.deepEqual({ ...again[0], log: [] }, { ...original, log: [] });
    assert.deepEqual(again[1], exported);
  });

  it("--state keeps every change across a restart (and wins over the seed); the file is 0600", async () => {
    const file = path.join(dir, "state.json");
    const changed = await withEmulator({ seed: SEED, stateFile: file }, async (client) => {
      assert.equal(statSync(file).mode & 0o777, 0o600, "written at start");
      const [home] = (await client.dnsServers.list()).filter((s) => s.default);
      await client.dnsServers.updateSettings(home!.id, { user_rules_settings: { rules: ["||tracker.example^"] } });
      const phone = await client.devices.create({ name: "Phone", device_type: "IOS", dns_server_id: "kids0001" });
      await client.devices.updateSettings(phone.id, { detect_doh_auth_only: true });
      await client.dedicatedIpv4.allocate();
      await client.devices.remove("laptop01");
      return view(client);
    });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const other = { ...SEED, dns_servers: [{ name: "Ignored", default: true }], devices: [], dedicated_ipv4: [], query_log: [] };
    const restored = await withEmulator({ seed: other, stateFile: file }, view);
    assert.deepEqual(restored, changed);
    assert.ok(restored.devices.some(([, name]) => name === "Phone"));
    assert.deepEqual(readdirSync(dir), ["state.json"], "no temporary file left behind");
  });

  it("the state file is replaced atomically (a new file renamed over it), never written through a symbolic link", async () => {
    const file = path.join(dir, "state.json");
    writeFileAtomic(file, "one");
    const first = statSync(file).ino;
    writeFileAtomic(file, "two");
    assert.equal(readFileSync(file, "utf8"), "two");
    assert.notEqual(statSync(file).ino, first, "a new file, renamed over the old one");
    assert.equal(statSync(file).mode & 0o777, 0o600);

    // A link in the state file's place: the emulator refuses to start, and the target is untouched.
    const target = path.join(dir, "target.txt");
    writeFileSync(target, "keep me");
    const link = path.join(dir, "link.json");
    symlinkSync(target, link);
    const err = await _rejects(startEmulator({ stateFile: link, optionNames: { stateFile: "--state" } }));
    assert.ok(err instanceof ConfigError);
    assert.equal(err.message, "--state: the file is a symbolic link; give the file itself");
    // Written directly, a link is replaced by the new file, its target untouched.
    writeFileAtomic(link, "new");
    assert.ok(!lstatSync(link).isSymbolicLink());
    assert.equal(readFileSync(target, "utf8"), "keep me");

    // A state file that cannot be written stops the start, saying so.
    const nowhere = await _rejects(startEmulator({ stateFile: path.join(dir, "missing-dir", "state.json"), optionNames: { stateFile: "--state" } }));
    assert.equal(nowhere.message, "--state: the file cannot be written (ENOENT)");

    // A failed rename (a directory in the way) leaves no temporary file.
    const blocked = path.join(dir, "blocked");
    mkdirSync(path.join(blocked, "state.json"), { recursive: true });
    assert.throws(() => writeFileAtomic(path.join(blocked, "state.json"), "x"));
    assert.deepEqual(readdirSync(blocked), ["state.json"]);
  });

  it("a bad seed is refused at start, naming the field path and never the value", async () => {
    const bad = (change: Record<string, unknown>): unknown => ({ ...SEED, devices: [], dedicated_ipv4: [], query_log: [], ...change });
    const cases: [unknown, string, string][] = [
      [{ ...SEED, version: 2 }, "version", "seed: version must be 1"],
      [bad({ dns_servers: [{ name: "" }] }), "dns_servers[0].name", "seed: dns_servers[0].name must be 1 to 64 characters"],
      [bad({ dns_servers: [{ name: "A", nmae: "x" }] }), "dns_servers[0].nmae", "seed: dns_servers[0].nmae is not a field of the seed format"],
      [bad({ devices: [{ name: "P", device_type: "PHONE-SECRET" }] }), "devices[0].device_type", "seed: devices[0].device_type must be one of"],
      [bad({ devices: [{ name: "P", device_type: "IOS", dns_server_id: "nowhere" }] }), "devices[0].dns_server_id", "seed: devices[0].dns_server_id is not the id of a server of the seed"],
      [bad({ dedicated_ipv4: [{ ip: "999.1.1.1" }] }), "dedicated_ipv4[0].ip", "seed: dedicated_ipv4[0].ip must be an IPv4 address"],
      [bad({ query_log: [{ domain: "a.example", device_id: "laptop01" }] }), "query_log[0].time_millis", "seed: query_log[0].time_millis needs time_millis or time_iso"],
      [bad({ query_log: [{ time_millis: 1, domain: "a.example" }] }), "query_log[0].device_id", "seed: query_log[0].device_id is required"],
      [
        bad({ dns_servers: [{ name: "A", settings: { block_ttl_seconds: "SECRET-VALUE" } }] }),
        "dns_servers[0].settings.block_ttl_seconds",
        "seed: dns_servers[0].settings.block_ttl_seconds: Must be an integer",
      ],
      [bad({ limits: {}, dedicated_ipv4: [{ ip: "198.51.100.1" }, { ip: "198.51.100.2" }] }), "limits.dedicated_ipv4", "seed: dedicated_ipv4 is over the account's dedicated_ipv4 limit"],
      [bad({ username: "nobody@example.com" }), "username", "seed: username is not a user of the emulator"],
      ["not an object", "seed", "seed: the file must hold a JSON object"],
    ];
    for (const [seed, field, message] of cases) {
      const err = await _rejects(startEmulator({ seed: seed as AccountSeedInput }));
      assert.ok(err instanceof ConfigError, field);
      assert.equal(err.code, "invalid_config");
      assert.equal(err.field, field);
      assert.ok(err.message.startsWith(message), `${err.message} ≠ ${message}`);
      assert.ok(!/SECRET|PHONE|999\.1|nobody/.test(_errorText(err)), `no value in: ${err.message}`);
    }
    assert.ok(!existsSync(path.join(dir, "state.json")));
  });
});
