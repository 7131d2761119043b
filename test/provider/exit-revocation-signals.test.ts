import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const MODULE = path.join(__dirname, "..", "..", "provider", "shared", "exit-revocation.js");
/** Children still running (a failed test's): killed after each test. */
const running = new Set<ChildProcess>();

/** Runs `body` in a fresh Node process with the module and a fake session maker; `signals` are sent, in turn, on each "ready". */
function run(body: string, signals: NodeJS.Signals[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }> {
  const script = `
const { revokeAtExit, revokeOnSignals } = require(${JSON.stringify(MODULE)});
const session = (name) => ({ revoke: () => (process.stdout.write("revoked " + name + "\\n"), new Promise((ok) => setImmediate(ok))) });
${body}`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  let out = "";
  let readies = 0;
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    const now = out.split("ready\n").length - 1;
    for (; readies < now; readies++) if (signals[readies]) child.kill(signals[readies]);
  });
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.once("close", (code, sig) => (running.delete(child), resolve({ code, signal: sig, out }))));
}

/**
 * `revokeOnSignals` (issue 34): the OpenTofu face keeps SIGINT out of the signals on which the password
 * logins are revoked and the signal re-raised, since go-plugin's rule is that a plugin ignores SIGINT
 * (tofu turns the user's Ctrl-C into StopProvider); SIGTERM still revokes, then ends the process.
 */
describe("revocation at exit: the signals chosen with revokeOnSignals", function () {
  this.timeout(60_000);
  afterEach(() => {
    for (const child of running) child.kill("SIGKILL");
    running.clear();
  });

  it("SIGTERM only: SIGINT neither revokes nor ends the process (its own listener ignores it); SIGTERM then revokes and ends it", async () => {
    const r = await run(
      `revokeOnSignals(["SIGTERM"]);
process.on("SIGINT", () => console.log("ignored\\nready"));
revokeAtExit(session("a"));
console.log("listeners", process.listenerCount("SIGTERM"), process.listenerCount("SIGINT"));
setInterval(() => {}, 1000);
console.log("ready");`,
      ["SIGINT", "SIGTERM"],
    );
    assert.equal(r.signal, "SIGTERM", r.out);
    assert.equal(r.out, "listeners 1 1\nready\nignored\nready\nrevoked a\n");
  });

  it("chosen after the hooks are in place: the signal left out is unhooked, one added is hooked", async () => {
    const r = await run(
      `revokeAtExit(session("a"));
revokeOnSignals(["SIGTERM"]);
const after = [process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")];
revokeOnSignals(["SIGTERM", "SIGINT"]);
revokeOnSignals(["SIGTERM", "SIGINT"]);
console.log("listeners", ...after, process.listenerCount("SIGTERM"), process.listenerCount("SIGINT"));
setInterval(() => {}, 1000);
console.log("ready");`,
      ["SIGINT"],
    );
    assert.equal(r.signal, "SIGINT", r.out);
    assert.equal(r.out, "listeners 1 0 1 1\nready\nrevoked a\n");
  });

  it("chosen before any login: nothing is hooked until one is minted", async () => {
    const r = await run(`revokeOnSignals(["SIGTERM"]); console.log("listeners", process.listenerCount("SIGTERM"), process.listenerCount("SIGINT"));`, []);
    assert.equal(r.code, 0, r.out);
    assert.equal(r.out, "listeners 0 0\n");
  });
});
