import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { _cleanEnv } from "../support/helpers";
import { CLI } from "../cli/_cli";

/**
 * The README and `dns-account emulator` say that when the --state file exists, --seed is ignored; the
 * CLI still read (and so required) the seed file before looking at the state, so a script that kept
 * `--seed account.json --state state.json` failed once account.json was moved away.
 */
describe("probe: emulator --seed is ignored when the --state file exists", function () {
  this.timeout(30_000);
  let dir: string;
  let child: ChildProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-probe-seed-"));
  });
  afterEach(async () => {
    try {
      if (child && child.exitCode === null && child.signalCode === null) {
        const closed = new Promise((resolve) => child!.once("close", resolve));
        child.kill("SIGTERM");
        await closed;
      }
    } finally {
      child = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("starts from the state file although the seed file is gone", async () => {
    const state = path.join(dir, "state.json");
    writeFileSync(state, JSON.stringify({ version: 1, accounts: [{ version: 1, username: "user@example.com", dns_servers: [{ name: "Kept", default: true }] }] }), { mode: 0o600 });
    child = spawn(process.execPath, [CLI, "emulator", "--port", "0", "--quiet", "--seed", path.join(dir, "moved-away.json"), "--state", state], { env: _cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = "";
      child!.stdout!.on("data", (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes("\n")) resolve(stdout.split("\n")[0]!);
      });
      child!.once("exit", (code) => reject(new Error(`exited (${code}) before printing its URL: ${stderr}`)));
    });
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+/);
  });
});
