import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type AccountSeedInput, type Emulator, type EmulatorOptions, startEmulator } from "../../emulator";
import { ConfigError } from "../../sdk";
import { _rejects } from "../support/helpers";
import { _api } from "./_api";

/** An exported account: its quotas come along (a real account's), two devices. */
const SEED: AccountSeedInput = {
  version: 1,
  limits: { dedicated_ipv4: 1, devices: 4 },
  devices: [
    { id: "laptop01", name: "Laptop", device_type: "MAC" },
    { id: "phone001", name: "Phone", device_type: "IOS" },
  ],
  dedicated_ipv4: [{ ip: "198.51.100.7" }],
};

describe("emulator: limitOverrides (the CLI's --limit)", () => {
  let emu: Emulator | undefined;
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-emu-limits-"));
  });
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (options: EmulatorOptions) => {
    emu = await startEmulator(options);
    return _api(() => emu!);
  };

  it("sets a quota of accounts made on first use: dedicated_ipv4=3 allocates three, the fourth is 429 naming the limit", async () => {
    const call = await start({ limitOverrides: { dedicated_ipv4: 3 } });
    assert.deepEqual((await call("GET", "/oapi/v1/account/limits")).json.dedicated_ipv4, { limit: 3, used: 0 });
    for (let i = 0; i < 3; i++) assert.equal((await call("POST", "/oapi/v1/dedicated_addresses/ipv4")).status, 200);
    const over = await call("POST", "/oapi/v1/dedicated_addresses/ipv4");
    assert.equal(over.status, 429);
    assert.equal(over.json.error_code, "RESOURCE_REACHED_LIMIT");
    assert.deepEqual(over.json.fields.map((f: { field: string }) => f.field), ["dedicated_ipv4"]);
  });

  it("0 is a quota too (an account without dedicated addresses)", async () => {
    const call = await start({ limitOverrides: { dedicated_ipv4: 0 } });
    assert.equal((await call("POST", "/oapi/v1/dedicated_addresses/ipv4")).status, 429);
  });

  it("wins over `limits` and over a seed's own limits; the state file keeps it, so it loads again without it", async () => {
    const stateFile = path.join(dir, "state.json");
    let call = await start({ seed: SEED, stateFile, limits: { dedicated_ipv4: 2 }, limitOverrides: { dedicated_ipv4: 3 } });
    const limits = (await call("GET", "/oapi/v1/account/limits")).json;
    assert.deepEqual(limits.dedicated_ipv4, { limit: 3, used: 1 });
    assert.deepEqual(limits.devices, { limit: 4, used: 2 }, "the seed's other quotas stay");
    assert.equal((await call("POST", "/oapi/v1/dedicated_addresses/ipv4")).status, 200);
    assert.equal((await call("POST", "/oapi/v1/dedicated_addresses/ipv4")).status, 200);
    const saved = () => (JSON.parse(readFileSync(stateFile, "utf8")) as { accounts: { limits?: Record<string, number> }[] }).accounts[0]!.limits;
    assert.deepEqual(saved(), { dedicated_ipv4: 3, devices: 4 });
    await emu!.close();

    // Without the override: the kept quota, and the three addresses load.
    call = await start({ stateFile });
    assert.deepEqual((await call("GET", "/oapi/v1/account/limits")).json.dedicated_ipv4, { limit: 3, used: 3 });
    await emu!.close();
    // With another: it wins over the state file's, and is kept in turn.
    call = await start({ stateFile, limitOverrides: { dedicated_ipv4: 5 } });
    assert.deepEqual((await call("GET", "/oapi/v1/account/limits")).json.dedicated_ipv4, { limit: 5, used: 3 });
    assert.deepEqual(saved(), { dedicated_ipv4: 5, devices: 4 });
  });

  it("an account made on first use keeps the override in the state file too (0 included)", async () => {
    const stateFile = path.join(dir, "state.json");
    let call = await start({ stateFile, limitOverrides: { dedicated_ipv4: 2, devices: 0 } });
    assert.equal((await call("POST", "/oapi/v1/dedicated_addresses/ipv4")).status, 200);
    assert.equal((await call("POST", "/oapi/v1/dedicated_addresses/ipv4")).status, 200);
    await emu!.close();
    call = await start({ stateFile });
    const limits = (await call("GET", "/oapi/v1/account/limits")).json;
    assert.deepEqual(limits.dedicated_ipv4, { limit: 2, used: 2 });
    assert.deepEqual(limits.devices, { limit: 0, used: 0 });
  });

  it("below what a seed holds: a ConfigError that says to raise the override, not the seed", async () => {
    const devices = await _rejects(startEmulator({ seed: SEED, limitOverrides: { devices: 1 }, optionNames: { seed: "--seed", limitOverrides: "--limit" } }));
    assert.ok(devices instanceof ConfigError);
    assert.equal(devices.field, "--limit.devices");
    assert.equal(devices.message, "--seed: devices[1] is over the account's devices limit, which --limit sets: raise it there");
    const addresses = await _rejects(startEmulator({ seed: SEED, limitOverrides: { dedicated_ipv4: 0 }, optionNames: { seed: "--seed", limitOverrides: "--limit" } }));
    assert.equal(addresses.field, "--limit.dedicated_ipv4");
    assert.match(addresses.message, /^--seed: dedicated_ipv4 is over the account's dedicated_ipv4 limit, which --limit sets/);
    // Without an override the seed is still blamed.
    const seedOnly = await _rejects(startEmulator({ seed: { ...SEED, limits: { devices: 1 } } }));
    assert.equal(seedOnly.field, "limits.devices");
  });

  it("an unknown name or a number that is not a whole number from 0 to 2147483647 is a ConfigError naming the option", async () => {
    const bad: [Record<string, unknown>, string, RegExp][] = [
      [{ dedicated_ip: 3 }, "--limit", /^--limit: the limit name is not one of access_rules, dedicated_ipv4, devices, dns_servers, requests, user_rules$/],
      [{ devices: -1 }, "--limit.devices", /^--limit: devices must be a whole number from 0 to 2147483647$/],
      [{ devices: 1.5 }, "--limit.devices", /whole number/],
      [{ devices: 2 ** 31 }, "--limit.devices", /whole number/],
      [{ devices: "3" }, "--limit.devices", /whole number/],
      [{ devices: Number.NaN }, "--limit.devices", /whole number/],
    ];
    for (const [limitOverrides, field, message] of bad) {
      const err = await _rejects(startEmulator({ limitOverrides: limitOverrides as NonNullable<EmulatorOptions["limitOverrides"]>, optionNames: { limitOverrides: "--limit" } }));
      assert.ok(err instanceof ConfigError, JSON.stringify(limitOverrides));
      assert.equal(err.field, field);
      assert.match(err.message, message);
    }
    assert.equal((await _rejects(startEmulator({ limitOverrides: { nope: 1 } as NonNullable<EmulatorOptions["limitOverrides"]> }))).field, "limitOverrides");
  });
});
