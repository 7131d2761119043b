import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { _closeAll, _rejects, _repoRoot } from "./helpers";
import { _useTempDirs } from "./temp";

const MOCHA = path.join(_repoRoot(), "node_modules", "mocha", "bin", "mocha.js");

/** Runs a fixture file under mocha with the run guards, as `npm test` does; resolves when the child exits. */
function runFixture(name: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  const args = [MOCHA, "--no-config", "--no-exit", "--reporter", "dot", "--require", path.join(__dirname, "hooks.js"), path.join(__dirname, "fixtures", `${name}.fixture.js`)];
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, out })));
}

describe("run guards (test/support/hooks)", () => {
  const tmp = _useTempDirs();

  it("a run whose after hook throws before closing its server fails, naming what holds it, instead of hanging", async () => {
    // A short bound so the test is quick; the server is never closed, so the outcome does not depend on it.
    const r = await runFixture("hung", { TMPDIR: tmp("dns-account-guard-"), DNS_ACCOUNT_TEST_DRAIN_MS: "200" });
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /still held open by: .*TCPServerWrap/);
  });

  it("so does a run where every test passes but a server is left open (exit 1, not mocha's 0 failures)", async () => {
    const r = await runFixture("open", { TMPDIR: tmp("dns-account-guard-"), DNS_ACCOUNT_TEST_DRAIN_MS: "200" });
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /1 passing/);
    assert.match(r.out, /still held open by: .*TCPServerWrap/);
  });

  it("a run that leaves a dns-account-* folder in the temporary folder fails and names it; the run's folder is removed", async () => {
    const dir = tmp("dns-account-guard-");
    const r = await runFixture("leftover", { TMPDIR: dir });
    assert.notEqual(r.code, 0, r.out);
    assert.match(r.out, /tests left 1 temporary folder\(s\) in .*: dns-account-forgotten-\w+/);
    assert.deepEqual(readdirSync(dir), [], "the run's private folder is gone");
  });

  it("a run that closes its server and removes its folders exits 0 and leaves nothing", async () => {
    const dir = tmp("dns-account-guard-");
    const r = await runFixture("clean", { TMPDIR: dir, DNS_ACCOUNT_TEST_DRAIN_MS: "60000" });
    assert.equal(r.code, 0, r.out);
    assert.deepEqual(readdirSync(dir), []);
  });

  it("_closeAll (for after hooks) runs every step even when an earlier one throws, then throws the first failure", async () => {
    const ran: string[] = [];
    const err = await _rejects(_closeAll(
      () => { ran.push("assert"); throw new Error("secret found"); },
      async () => { ran.push("host"); throw new Error("host close failed"); },
      () => void ran.push("emulator"),
    ));
    assert.equal(err.message, "secret found");
    assert.deepEqual(ran, ["assert", "host", "emulator"]);
  });
});
