import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** How long removing a suite's folders may take (synchronous: it cannot hang, only be slow). */
const REMOVE_MS = 300_000;

const remove = (dirs: string[]): void => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
};

/**
 * Temporary folders for one suite: `tmp("dns-account-x-")` makes a fresh folder in `os.tmpdir()`. One
 * made inside a test (or its `beforeEach`) is removed after that test; one made in a `before` hook or
 * while the suite is declared, after the suite. Call it in a `describe` body; its `after` hook runs
 * in order with the suite's others, so call it below an `after` hook that still reads the folders.
 *
 * @example
 * ```ts
 * describe("store", () => {
 *   const tmp = _useTempDirs();
 *   it("writes", () => { const dir = tmp("dns-account-store-"); ... });
 * });
 * ```
 */
export function _useTempDirs(): (prefix: string) => string {
  let inTest = false;
  const forTest: string[] = [];
  const forSuite: string[] = [];
  beforeEach(() => {
    inTest = true;
  });
  // Removing an installed program (node_modules) can take longer than a test's default timeout on a
  // busy machine; the hooks may be made before the suite sets its own timeout, so they set theirs.
  afterEach(function () {
    this.timeout(REMOVE_MS);
    inTest = false;
    remove(forTest);
  });
  after(function () {
    this.timeout(REMOVE_MS);
    remove(forSuite);
  });
  return (prefix) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    (inTest ? forTest : forSuite).push(dir);
    return dir;
  };
}

const forRun: string[] = [];

/** A temporary folder shared by the whole run (made once, e.g. an installed program): removed after the last suite. */
export function _runTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  forRun.push(dir);
  return dir;
}

/** Removes the run's shared folders (the root `afterAll` hook of test/support/hooks). */
export function _removeRunTempDirs(): void {
  remove(forRun);
}
