import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const MODULE = path.join(__dirname, "..", "..", "provider", "shared", "exit-revocation.js");
/** Children still running (a failed test's): killed after each test. */
const running = new Set<ChildProcess>();

/** Runs `body` in a fresh Node process with `revokeAtExit` and a fake session maker; `signal` is sent once it prints "ready". */
function run(body: string, signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }> {
  const script = `
const { revokeAtExit } = require(${JSON.stringify(MODULE)});
// A revocation takes a turn of the event loop, as a request does ("hang": never ends).
const session = (name, how = "ok") => ({
  revoke: () => (process.stdout.write("revoked " + name + "\\n"), how === "hang" ? new Promise(() => setInterval(() => {}, 1000)) : new Promise((ok, fail) => setImmediate(() => (how === "fail" ? fail(new Error("offline")) : ok())))),
});
${body}`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  let out = "";
  let sent = false;
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    if (signal && !sent && out.includes("ready\n")) sent = child.kill(signal);
  });
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.once("close", (code, sig) => (running.delete(child), resolve({ code, signal: sig, out }))));
}

/**
 * Password logins of a program or provider host mint refresh tokens that no state records: they are
 * revoked when the process ends (its loop empties, or SIGTERM/SIGINT, re-raised after).
 */
describe("revocation at exit of the sessions a password login minted", function () {
  this.timeout(60_000);
  afterEach(() => {
    for (const child of running) child.kill("SIGKILL");
    running.clear();
  });

  it("when the event loop empties: every session once, a failing one no failure; the listeners are hooked once per process, across copies of the module", async () => {
    const r = await run(`
revokeAtExit(session("a"));
revokeAtExit(session("b", "fail"));
delete require.cache[require.resolve(${JSON.stringify(MODULE)})];
require(${JSON.stringify(MODULE)}).revokeAtExit(session("c"));
console.log("listeners", process.listenerCount("beforeExit"), process.listenerCount("SIGTERM"), process.listenerCount("SIGINT"));
console.log("shared", globalThis[Symbol.for("pulumi-dns-account.minted-sessions")].sessions.size);`);
    assert.equal(r.code, 0, r.out);
    // Once each: the loop empties again after the revocations, and nothing is left to revoke.
    assert.equal(r.out, "listeners 1 1 1\nshared 3\nrevoked a\nrevoked b\nrevoked c\n");
  });

  it("once the process is ending (revokeMintedAtEnd: a signal, the engine gone, tofu's Shutdown), a session registered later is revoked at once, before it can log in; revokeMintedNow alone leaves later logins be", async () => {
    // Without it, a call still in flight when SIGTERM came logged in again through a fresh shared session,
    // and that login was never revoked (found by the tofu logins test under the release executable).
    const r = await run(`
const { revokeMintedNow, revokeMintedAtEnd } = require(${JSON.stringify(MODULE)});
const shared = () => globalThis[Symbol.for("pulumi-dns-account.minted-sessions")].sessions.size;
revokeAtExit(session("first"));
revokeMintedNow().then(() => {
  revokeAtExit(session("kept"));
  console.log("after now", shared());
  return revokeMintedAtEnd();
}).then(() => {
  revokeAtExit(session("late"));
  console.log("after end", shared());
  process.exit(0);
});`);
    assert.equal(r.code, 0, r.out);
    assert.equal(r.out, "revoked first\nafter now 1\nrevoked kept\nrevoked late\nafter end 0\n");
  });

  it("nothing minted: nothing hooked, nothing revoked", async () => {
    const r = await run(`console.log("listeners", process.listenerCount("beforeExit"), process.listenerCount("SIGTERM"));`);
    assert.equal(r.out, "listeners 0 0\n");
  });

  it("on SIGTERM, a revocation that never ends holds the process up for a few seconds only (the engine waits about one)", async () => {
    const r = await run(`revokeAtExit(session("stuck", "hang")); setInterval(() => {}, 1000); console.log("ready");`, "SIGTERM");
    assert.equal(r.signal, "SIGTERM", r.out);
    assert.equal(r.out, "ready\nrevoked stuck\n");
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`on ${signal}: every session revoked, then the signal re-raised so the process ends by it`, async () => {
      const r = await run(`revokeAtExit(session("a")); revokeAtExit(session("b")); setInterval(() => {}, 1000); console.log("ready");`, signal);
      assert.equal(r.signal, signal, r.out);
      assert.equal(r.out, "ready\nrevoked a\nrevoked b\n");
    });
  }
});
