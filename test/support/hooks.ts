/**
 * Run guards, loaded by `.mocharc.json`'s `require` before any test file:
 *
 * - **Temporary folders.** The run gets a private temporary folder (`TMPDIR`, inherited by every child
 *   it starts), so that runs beside it on the same machine cannot disturb the count. After every suite's
 *   own `after` hooks, a `dns-account-*` entry there that was not there at the start fails the run, by
 *   name: each test removes what it made (see {@link _useTempDirs}). The folder goes at the end.
 * - **A hung run.** mocha waits for the event loop to drain (`exit: false`), so a server or socket a
 *   test left open (an `after` hook that threw before closing it) used to keep `npm test` waiting for
 *   ever. Once the run has ended, an unref'd timer is armed: if the process is still alive when it fires,
 *   something keeps it alive; the guard prints what (`process.getActiveResourcesInfo()`) and exits 1.
 *   A healthy run never reaches it: the process exits as soon as the loop drains, and the timer, being
 *   unref'd, does not keep it alive.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { _removeRunTempDirs, REMOVE_TIMEOUT_MS } from "./temp";

/**
 * How long the process may stay alive after the run ends: 30 s. What legitimately outlives the last
 * test is short: idle keep-alive sockets (the emulator's server closes them after 5 s, undici's pool
 * about 4 s) and children being reaped; 30 s is six times that, so a loaded machine does not make a
 * healthy run fail, and a hung run fails in half a minute instead of never. The guard's own test
 * shortens it through DNS_ACCOUNT_TEST_DRAIN_MS (a run that leaks a server fails whatever the bound).
 */
const DRAIN_MS = Number(process.env.DNS_ACCOUNT_TEST_DRAIN_MS ?? 30_000);

const PREFIX = "dns-account-";

const realTmp = os.tmpdir();
const runTmp = mkdtempSync(path.join(realTmp, "dns-account-run-"));
process.env.TMPDIR = runTmp;
process.env.TMP = runTmp;
process.env.TEMP = runTmp;

const ours = (): string[] => readdirSync(os.tmpdir()).filter((name) => name.startsWith(PREFIX)).sort();
const atStart = new Set(ours());

/** Root hooks: the temporary-folder check runs after every suite's `after` hooks. */
export const mochaHooks = {
  afterAll(this: Mocha.Context): void {
    this.timeout(REMOVE_TIMEOUT_MS);
    _removeRunTempDirs();
    const left = ours().filter((name) => !atStart.has(name));
    if (left.length > 0) {
      throw new Error(`tests left ${left.length} temporary folder(s) in ${os.tmpdir()}: ${left.join(", ")}`);
    }
  },
};

/** After the run: removes the run's temporary folder, then arms the hang guard. */
export function mochaGlobalTeardown(): void {
  process.env.TMPDIR = realTmp;
  rmSync(runTmp, { recursive: true, force: true, maxRetries: 3 });
  const timer = setTimeout(() => {
    const counts = new Map<string, number>();
    for (const r of process.getActiveResourcesInfo()) counts.set(r, (counts.get(r) ?? 0) + 1);
    const held = [...counts].map(([r, n]) => `${r} ×${n}`).join(", ");
    process.stderr.write(`\nThe test run ended ${DRAIN_MS} ms ago but the process is still held open by: ${held}.\n` +
      "A test left a server, socket, timer or child running (close them in after hooks, in finally).\n");
    // mocha set the exit code to the number of failures in an 'exit' listener of its own; this one comes after it.
    process.on("exit", () => void (process.exitCode = 1));
    process.exit(1);
  }, DRAIN_MS);
  timer.unref();
}
