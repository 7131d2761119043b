import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "../../sdk";
import { _cleanEnv } from "../support/helpers";
import { CLI } from "../cli/_cli";

/**
 * `dns-account emulator --quiet --state FILE` (issue 22 §7): once started, a state file that can no
 * longer be written was reported only through the request log, which --quiet turns off, so every
 * later change was silently not kept and the next start served the old account.
 */
describe("probe: emulator --quiet --state says when a change cannot be kept", function () {
  this.timeout(30_000);
  let dir: string;
  let child: ChildProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-probe-state-"));
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

  it("prints the --state problem on stderr even with --quiet", async () => {
    const stateDir = path.join(dir, "kept");
    mkdirSync(stateDir);
    child = spawn(process.execPath, [CLI, "emulator", "--port", "0", "--quiet", "--state", path.join(stateDir, "state.json")], { env: _cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<number | null>((resolve) => child!.once("close", resolve));
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = "";
      child!.stdout!.on("data", (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes("\n")) resolve(stdout.split("\n")[0]!);
      });
      child!.once("exit", (code) => reject(new Error(`exited (${code}) before printing its URL: ${stderr}`)));
    });
    // The folder goes away under the running emulator: the next write of the state fails.
    rmSync(stateDir, { recursive: true, force: true });
    const client = createClient({ baseUrl: url, apiKey: "emulator-api-key-user" });
    try {
      const [server] = await client.dnsServers.list();
      await client.devices.create({ name: "Phone", device_type: "IOS", dns_server_id: server!.id });
    } finally {
      await client.close();
    }
    // The state is written in the same turn as the answer, before the emulator reads a signal: stop it
    // and read everything it printed.
    child.kill("SIGTERM");
    assert.equal(await closed, 0);
    assert.match(stderr, /--state: the file could not be written \(ENOENT\); the change is not kept/);
    assert.doesNotMatch(stderr, /POST|GET/, "no request log with --quiet");
  });
});
