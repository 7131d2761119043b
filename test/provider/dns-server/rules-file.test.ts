import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { _repoRoot, _skipBecause } from "../../support/helpers";

const RULES = path.join(_repoRoot(), "dist", "provider", "dns-server", "rules.js");
const CAP = 16 * 1024 * 1024;

/** What rulesFromFile(file) did: the rules' count, or the error's code, field and message. */
interface Outcome {
  rules?: number;
  code?: string;
  field?: string;
  message?: string;
}

/**
 * Runs rulesFromFile in a child process: a reader that blocks on a FIFO or reads a file without end
 * would block this process's event loop for good, so the child's `timeout` is only a safety net that
 * turns such a regression into a failure instead of a hung suite.
 */
function readInChild(file: string): Outcome {
  const script = `
    const { rulesFromFile } = require(${JSON.stringify(RULES)});
    let out;
    try { out = { rules: rulesFromFile(${JSON.stringify(file)}).length }; }
    catch (e) { out = { code: e.code, field: e.field, message: e.message }; }
    process.stdout.write(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ["--max-old-space-size=256", "-e", script], { encoding: "utf8", timeout: 30_000 });
  assert.equal(r.error, undefined, `rulesFromFile(${file}) did not return: ${String(r.error)}`);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Outcome;
}

/** rulesFromFile reads regular files only, and at most 16 MiB counted while reading (issue 22 §4). */
describe("rulesFromFile: regular files only, the cap counted while reading", function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-rules-file-"));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("a FIFO with no writer is refused at once, naming the argument", function () {
    if (process.platform === "win32") _skipBecause(this, "mkfifo makes no FIFO on Windows");
    const fifo = path.join(dir, "rules.fifo");
    execFileSync("mkfifo", [fifo]);
    const r = readInChild(fifo);
    assert.equal(r.code, "invalid_config");
    assert.equal(r.field, "path");
    assert.match(r.message!, /^rulesFromFile: "path" must be a regular file, and .*rules\.fifo is a FIFO$/);
  });

  it("a device (/dev/zero, which never ends) is refused", function () {
    if (!existsSync("/dev/zero")) _skipBecause(this, "this system has no /dev/zero");
    const r = readInChild("/dev/zero");
    assert.equal(r.code, "invalid_config");
    assert.match(r.message!, /\/dev\/zero is a character device$/);
  });

  it("a /proc file, whose size says 0, is read, and one without end stops at the cap", function () {
    if (!existsSync("/proc/self/status") || !existsSync("/proc/self/pagemap")) _skipBecause(this, "this system has no /proc/self/status and /proc/self/pagemap");
    assert.ok(readInChild("/proc/self/status").rules! > 0, "a small /proc file is read");
    // /proc/self/pagemap reports size 0 and reads on for gigabytes (8 bytes per page of address space).
    const r = readInChild("/proc/self/pagemap");
    assert.equal(r.code, "invalid_config");
    assert.equal(r.field, "path");
    assert.equal(r.message, `rulesFromFile: /proc/self/pagemap holds more than ${CAP} bytes, the most it reads`);
  });

  it("a regular file over the cap is refused; one at the cap is read", () => {
    const big = path.join(dir, "big.txt");
    writeFileSync(big, "");
    truncateSync(big, CAP + 1);
    assert.match(readInChild(big).message!, /big\.txt holds more than 16777216 bytes/);
    truncateSync(big, CAP);
    writeFileSync(big, "||ads.example^\n", { flag: "r+" });
    assert.equal(readInChild(big).rules, 2, "the rule, and the zeros that fill the file as one line");
  });
});
