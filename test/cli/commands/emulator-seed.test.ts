import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmulator } from "../../../emulator";
import { type Client, createClient } from "../../../sdk";
import { _cleanEnv } from "../../support/helpers";
import { CLI, _cli as cli } from "../_cli";

const KEY = "emulator-api-key-user";

/** Starts `dns-account emulator --port 0 --quiet …` and returns its URL and a stop function (SIGTERM, exit code). */
async function emulatorBin(args: string[]): Promise<{ url: string; stop(): Promise<number | null> }> {
  const child: ChildProcess = spawn(process.execPath, [CLI, "emulator", "--port", "0", "--quiet", ...args], { env: _cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes("\n")) resolve(stdout.split("\n")[0]!);
    });
    child.once("exit", (code) => reject(new Error(`exited (${code}) before printing its URL: ${stderr}`)));
  });
  return { url, stop: () => (child.kill("SIGTERM"), exited) };
}

/** Servers with their rules, devices and addresses, as the SDK lists them. */
async function account(url: string) {
  const client: Client = createClient({ baseUrl: url, apiKey: KEY });
  try {
    const servers = await Promise.all((await client.dnsServers.list()).map((s) => client.dnsServers.get(s.id)));
    return {
      servers: servers.map((s) => [s.id, s.name, s.default, s.settings.user_rules_settings.rules]).sort(),
      devices: (await client.devices.list()).map((d) => [d.id, d.name, d.dns_server_id]).sort(),
      addresses: (await client.dedicatedIpv4.list()).map((a) => [a.ip, a.device_id ?? null]).sort(),
    };
  } finally {
    await client.close();
  }
}

/** An account offline: export --format seed, emulator --seed, then --state across a restart (issue 22 §7). */
describe("dns-account export --format seed and emulator --seed / --state (through the bin)", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-seed-cli-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("an exported account seeds an emulator, and --state keeps a change across a restart", async () => {
    // The "real" account: an emulator with a server of rules, a device and a linked address.
    const source = await startEmulator();
    let exported: string;
    let original: Awaited<ReturnType<typeof account>>;
    try {
      const client = createClient({ baseUrl: source.url, apiKey: KEY });
      try {
        const office = await client.dnsServers.create({ name: "Office", settings: { user_rules_settings: { enabled: true, rules: ["||ads.example^", "||tracker.example^"] } } });
        const printer = await client.devices.create({ name: "Printer", device_type: "UNKNOWN", dns_server_id: office.id });
        const { ip } = await client.dedicatedIpv4.allocate();
        await client.devices.linkDedicatedIpv4(printer.id, ip);
      } finally {
        await client.close();
      }
      const r = await cli(["export", "--format", "seed"], { DNS_ACCOUNT_BASE_URL: source.url, DNS_ACCOUNT_API_KEY: KEY });
      assert.equal(r.code, 0, r.stderr);
      exported = r.stdout;
      original = await account(source.url);
    } finally {
      await source.close();
    }
    const seedFile = path.join(dir, "account.json");
    writeFileSync(seedFile, exported);
    const stateFile = path.join(dir, "state.json");

    const first = await emulatorBin(["--seed", seedFile, "--state", stateFile]);
    let changed: Awaited<ReturnType<typeof account>>;
    try {
      assert.deepEqual(await account(first.url), original, "the seeded copy lists as the account did");
      const client = createClient({ baseUrl: first.url, apiKey: KEY });
      try {
        await client.devices.create({ name: "Phone", device_type: "IOS", dns_server_id: original.servers[0]![0] as string });
      } finally {
        await client.close();
      }
      changed = await account(first.url);
    } finally {
      assert.equal(await first.stop(), 0);
    }
    assert.equal(statSync(stateFile).mode & 0o777, 0o600);

    const second = await emulatorBin(["--state", stateFile]);
    try {
      assert.deepEqual(await account(second.url), changed, "the change survived the restart");
    } finally {
      assert.equal(await second.stop(), 0);
    }
  });

  it("a bad seed file stops it before it listens, naming --seed and the field (exit 1)", async () => {
    const write = (name: string, text: string): string => {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      return file;
    };
    const cases: [string, RegExp][] = [
      [write("bad-field.json", JSON.stringify({ version: 1, devices: [{ name: "", device_type: "IOS" }] })), /^dns-account: invalid_config: --seed: devices\[0\]\.name must be 1 to 64 characters$/m],
      [write("bad-json.json", "{ version: 1"), /^dns-account: invalid_config: --seed: the file is not valid JSON$/m],
      [path.join(dir, "missing.json"), /^dns-account: invalid_config: --seed: the file cannot be read \(ENOENT\)$/m],
      [dir, /^dns-account: invalid_config: --seed: not a regular file$/m],
    ];
    for (const [file, message] of cases) {
      const r = await cli(["emulator", "--port", "0", "--quiet", "--seed", file], {});
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, "", "never listened");
    }
  });
});
