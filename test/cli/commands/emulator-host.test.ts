import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { DEFAULT_API_KEYS, DEFAULT_USERS } from "../../../emulator/state";
import { _cleanEnv } from "../../support/helpers";
import { CLI, _cli as cli, type Run } from "../_cli";

const KEY = "emulator-api-key-user";
/** What the emulator publishes: no line of the tool's own output needs to repeat it. */
const PUBLISHED = [DEFAULT_USERS[0]!.password, ...DEFAULT_API_KEYS.map((k) => k.key)];

/** `dns-account emulator --port 0 --quiet …` running: its URL, and stop() (SIGINT) with all it printed. */
async function emulatorBin(args: string[]): Promise<{ url: string; port: number; stop(): Promise<Run> }> {
  const child = spawn(process.execPath, [CLI, "emulator", "--port", "0", "--quiet", ...args], { env: _cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes("\n")) resolve(stdout.split("\n")[0]!);
    });
    child.once("exit", (code) => reject(new Error(`exited (${code}) before printing its URL: ${stderr}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    stop: async () => {
      child.kill("SIGINT");
      const code = await exited;
      return { code, stdout, stderr };
    },
  };
}

/** A request to 127.0.0.1:port (or `address`:port) with exactly this Host. */
function send(port: number, host: string, method: string, pathname: string, headers: Record<string, string> = {}, body?: string, address = "127.0.0.1"): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const all = { ...headers, host, ...(body !== undefined ? { "content-length": String(Buffer.byteLength(body)) } : {}) };
    const r = http.request({ host: address, port, method, path: pathname, headers: all, setHost: false, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, body: text }));
    });
    r.once("error", reject);
    r.end(body);
  });
}

const limitsOf = async (port: number): Promise<Record<string, { limit: number; used: number }>> =>
  JSON.parse((await send(port, `127.0.0.1:${port}`, "GET", "/oapi/v1/account/limits", { authorization: `ApiKey ${KEY}` })).body) as Record<string, { limit: number; used: number }>;

/** Issue 32 §3 and §5: the emulator answers only its own address; --allow-remote; --allow-host; --limit. */
describe("dns-account emulator: its address, --allow-remote, --allow-host and --limit (through the bin)", function () {
  this.timeout(60_000);

  it("answers only Host values naming its address: rebind.attacker.example gets 421 on the token, authorize, OpenAPI and API routes", async () => {
    const emu = await emulatorBin([]);
    try {
      const p = emu.port;
      const form = { "content-type": "application/x-www-form-urlencoded" };
      const password = new URLSearchParams({ grant_type: "password", username: DEFAULT_USERS[0]!.username, password: DEFAULT_USERS[0]!.password }).toString();
      const requests: [string, string, Record<string, string>, string?][] = [
        ["POST", "/oapi/v1/oauth_token", form, password],
        ["GET", "/oapi/v1/oauth_authorize?response_type=token&client_id=dns-account-cli&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcallback", {}],
        ["GET", "/swagger/openapi.json", {}],
        ["GET", "/oapi/v1/account/limits", { authorization: `ApiKey ${KEY}` }],
        ["GET", "/oapi/v1/dns_servers", { authorization: `ApiKey ${KEY}` }],
      ];
      for (const [method, pathname, headers, body] of requests) {
        const rebound = await send(p, `rebind.attacker.example:${p}`, method, pathname, headers, body);
        assert.equal(rebound.status, 421, pathname);
        assert.equal((JSON.parse(rebound.body) as { error_code: string }).error_code, "misdirected_request");
        for (const host of [`127.0.0.1:${p}`, `localhost:${p}`, `[::1]:${p}`]) {
          const ok = await send(p, host, method, pathname, headers, body);
          assert.ok(ok.status === 200 || ok.status === 302, `${host} ${pathname}: ${ok.status}`);
        }
      }
    } finally {
      const r = await emu.stop();
      assert.equal(r.code, 0);
      assert.equal(r.stderr, "", "--quiet: no log, no warning on loopback");
    }
  });

  it("--host 0.0.0.0 (or any address that is not loopback) without --allow-remote is refused before listening: exit 2 naming both flags", async () => {
    for (const host of ["0.0.0.0", "::", "192.0.2.10", "example.com"]) {
      const r = await cli(["emulator", "--port", "0", "--host", host], {});
      assert.equal(r.code, 2, host);
      assert.equal(r.stdout, "", "it never printed a URL");
      assert.equal(
        r.stderr,
        "dns-account: usage: --host is not a loopback address (127.0.0.1, ::1, localhost): the emulator's users, password and API keys are published, so anyone who reaches it could use them; pass --allow-remote to listen there anyway\n",
      );
    }
    const empty = await cli(["emulator", "--port", "0", "--host", ""], {});
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /^dns-account: usage: --host needs an address/);
  });

  it("--host 0.0.0.0 --allow-remote listens and says so in a warning: line on stderr even under --quiet; the Host rule still holds", async () => {
    const emu = await emulatorBin(["--host", "0.0.0.0", "--allow-remote"]);
    let run: Run;
    try {
      assert.match(emu.url, /^http:\/\/0\.0\.0\.0:\d+$/);
      assert.equal((await send(emu.port, `127.0.0.1:${emu.port}`, "GET", "/oapi/v1/account/limits", { authorization: `ApiKey ${KEY}` })).status, 200);
      assert.equal((await send(emu.port, `0.0.0.0:${emu.port}`, "GET", "/oapi/v1/account/limits", { authorization: `ApiKey ${KEY}` })).status, 200);
      assert.equal((await send(emu.port, `rebind.attacker.example:${emu.port}`, "GET", "/oapi/v1/account/limits", { authorization: `ApiKey ${KEY}` })).status, 421);
    } finally {
      run = await emu.stop();
    }
    assert.equal(run.code, 0);
    assert.equal(run.stdout, `${emu.url}\n`, "stdout keeps only the URL");
    const lines = run.stderr.split("\n").filter(Boolean);
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0]!, new RegExp(`^warning: --allow-remote: the emulator listens on http://0\\.0\\.0\\.0:${emu.port}, beyond this machine; its users, password and API keys are published`));
    for (const secret of PUBLISHED) assert.ok(!run.stderr.toLowerCase().includes(secret.toLowerCase()), "the warning points at --help, it does not print the credentials");

    // On a loopback host, --allow-remote changes nothing and warns of nothing.
    const local = await emulatorBin(["--allow-remote"]);
    const quiet = await local.stop();
    assert.equal(quiet.stderr, "");
  });

  it("--allow-host NAME (repeatable) answers docker-compose's http://emulator:PORT; a malformed one is exit 2 naming the flag", async () => {
    const emu = await emulatorBin(["--allow-host", "emulator", "--allow-host", "localhost:9000"]);
    try {
      for (const host of [`emulator:${emu.port}`, "localhost:9000", `127.0.0.1:${emu.port}`]) {
        assert.equal((await send(emu.port, host, "GET", "/oapi/v1/account/limits", { authorization: `ApiKey ${KEY}` })).status, 200, host);
      }
      assert.equal((await send(emu.port, `rebind.attacker.example:${emu.port}`, "GET", "/swagger/openapi.json")).status, 421);
    } finally {
      assert.equal((await emu.stop()).code, 0);
    }
    for (const bad of ["http://emulator", "user@emulator", "emulator:99999", ""]) {
      const r = await cli(["emulator", "--port", "0", "--allow-host", bad], {});
      assert.equal(r.code, 2, bad);
      assert.equal(r.stderr, "dns-account: usage: --allow-host takes a host name or address, with an optional :PORT\n");
    }
  });

  it("--limit dedicated_ipv4=3 (repeatable) sets the account's quotas, over an exported seed's own", async () => {
    const emu = await emulatorBin(["--limit", "dedicated_ipv4=3", "--limit", "devices=0"]);
    try {
      const limits = await limitsOf(emu.port);
      assert.deepEqual(limits.dedicated_ipv4, { limit: 3, used: 0 });
      assert.deepEqual(limits.devices, { limit: 0, used: 0 });
      assert.deepEqual(limits.dns_servers, { limit: 5, used: 1 }, "the others keep their defaults");
      for (let i = 0; i < 3; i++) assert.equal((await send(emu.port, `127.0.0.1:${emu.port}`, "POST", "/oapi/v1/dedicated_addresses/ipv4", { authorization: `ApiKey ${KEY}` })).status, 200);
      assert.equal((await send(emu.port, `127.0.0.1:${emu.port}`, "POST", "/oapi/v1/dedicated_addresses/ipv4", { authorization: `ApiKey ${KEY}` })).status, 429);
    } finally {
      assert.equal((await emu.stop()).code, 0);
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-limit-cli-"));
    try {
      const seed = path.join(dir, "account.json");
      writeFileSync(seed, JSON.stringify({ version: 1, limits: { dedicated_ipv4: 1, devices: 7 }, dedicated_ipv4: [{ ip: "198.51.100.7" }] }));
      const seeded = await emulatorBin(["--seed", seed, "--limit", "dedicated_ipv4=3"]);
      try {
        const limits = await limitsOf(seeded.port);
        assert.deepEqual(limits.dedicated_ipv4, { limit: 3, used: 1 });
        assert.deepEqual(limits.devices, { limit: 7, used: 0 });
      } finally {
        assert.equal((await seeded.stop()).code, 0);
      }
      const lowered = await cli(["emulator", "--port", "0", "--seed", seed, "--limit", "dedicated_ipv4=0"], {});
      assert.equal(lowered.code, 1);
      assert.equal(lowered.stderr, "dns-account: invalid_config: --seed: dedicated_ipv4 is over the account's dedicated_ipv4 limit, which --limit sets: raise it there\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--limit with an unknown name, no number or a bad one is exit 2 naming --limit, never echoing the text", async () => {
    const names = "access_rules, dedicated_ipv4, devices, dns_servers, requests, user_rules";
    const cases: [string[], string][] = [
      [["dedicated_ipz=3"], `--limit takes NAME=N, NAME one of ${names} (see dns-account emulator --help)`],
      [["dedicated_ipv4"], `--limit takes NAME=N, NAME one of ${names} (see dns-account emulator --help)`],
      [["=3"], `--limit takes NAME=N, NAME one of ${names} (see dns-account emulator --help)`],
      [["DEVICES=3"], `--limit takes NAME=N, NAME one of ${names} (see dns-account emulator --help)`],
      [["dedicated_ipv4=-1"], "--limit dedicated_ipv4 must be a whole number from 0 to 2147483647"],
      [["dedicated_ipv4=3.5"], "--limit dedicated_ipv4 must be a whole number from 0 to 2147483647"],
      [["dedicated_ipv4="], "--limit dedicated_ipv4 must be a whole number from 0 to 2147483647"],
      [["dedicated_ipv4=0x10"], "--limit dedicated_ipv4 must be a whole number from 0 to 2147483647"],
      [["dedicated_ipv4= 3"], "--limit dedicated_ipv4 must be a whole number from 0 to 2147483647"],
      [["devices=2147483648"], "--limit devices must be a whole number from 0 to 2147483647"],
      [["devices=99999999999"], "--limit devices must be a whole number from 0 to 2147483647"],
      [["devices=2", "devices=3"], "--limit devices is given twice"],
    ];
    for (const [values, message] of cases) {
      const r = await cli(["emulator", "--port", "0", ...values.flatMap((v) => ["--limit", v])], {});
      assert.equal(r.code, 2, values.join(" "));
      assert.equal(r.stdout, "");
      assert.equal(r.stderr, `dns-account: usage: ${message}\n`, values.join(" "));
    }
    const missing = await cli(["emulator", "--limit"], {});
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--limit has a missing or wrong value/);
  });

  it("--host [::1] (an IPv6 address as a URL writes it) listens on ::1 and prints its URL in brackets; a port or a name in brackets is exit 2 naming --host", async function () {
    // A port held on ::1, which also tells whether this machine has an IPv6 loopback at all.
    const holder = net.createServer();
    const held = await new Promise<number | string>((resolve) => {
      holder.once("error", (err: NodeJS.ErrnoException) => resolve(String(err.code)));
      holder.listen(0, "::1", () => resolve((holder.address() as net.AddressInfo).port));
    });
    if (typeof held === "string") {
      if (!["EADDRNOTAVAIL", "EAFNOSUPPORT"].includes(held)) throw new Error(`listening on ::1 failed: ${held}`);
      console.log(`      skipped: this machine has no IPv6 loopback (::1: ${held}); --host 127.0.0.1 is tested above`);
      this.skip();
    }
    try {
      for (const given of ["[::1]", "::1", "[0:0::1]"]) {
        const emu = await emulatorBin(["--host", given]);
        try {
          assert.match(emu.url, /^http:\/\/\[::1\]:\d+$/, given);
          assert.equal((await send(emu.port, `[::1]:${emu.port}`, "GET", "/oapi/v1/account/limits", { authorization: `ApiKey ${KEY}` }, undefined, "::1")).status, 200, given);
          assert.equal((await send(emu.port, `rebind.attacker.example:${emu.port}`, "GET", "/oapi/v1/account/limits", { authorization: `ApiKey ${KEY}` }, undefined, "::1")).status, 421, given);
        } finally {
          const r = await emu.stop();
          assert.equal(r.code, 0);
          assert.equal(r.stderr, "", `${given}: loopback, so no warning`);
        }
      }
      // A port taken on ::1: the message writes the address as a URL does.
      const taken = await cli(["emulator", "--host", "[::1]", "--port", String(held)], {});
      assert.equal(taken.code, 2);
      assert.equal(taken.stderr, `dns-account: usage: port ${held} on [::1] is taken: pass --port 0 for any free port (or another --port)\n`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }

    // Brackets do not open a way around the loopback rule.
    const remote = await cli(["emulator", "--port", "0", "--host", "[2001:db8::1]"], {});
    assert.equal(remote.code, 2);
    assert.match(remote.stderr, /^dns-account: usage: --host is not a loopback address .*pass --allow-remote/);
    for (const bad of ["[::1]:8787", "[127.0.0.1]", "[localhost]", "[::1", "::1]", "[[::1]]", "[]"]) {
      const r = await cli(["emulator", "--port", "0", "--host", bad], {});
      assert.equal(r.code, 2, bad);
      assert.equal(r.stdout, "", bad);
      assert.equal(r.stderr, "dns-account: usage: --host takes an address without a port, such as 127.0.0.1 or ::1 (brackets are for an IPv6 address alone: [::1]); the port goes in --port\n", bad);
    }
  });
});
