import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { _repoRoot } from "../support/helpers";

describe("npm run demo", () => {
  it("runs the lifecycle against the emulator and prints no secret", async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(_repoRoot(), "dist", "examples", "demo", "index.js")]);
    for (const n of [1, 2, 3, 4, 5, 6]) assert.match(stdout, new RegExp(`^${n}\\. `, "m"));
    assert.match(stdout, /refresh token unchanged/);
    assert.match(stdout, /account\/limits -> 200/);
    assert.match(stdout, /invalid_grant/);
    const output = stdout + stderr;
    assert.ok(!output.includes("emulator-password"), "no password");
    // The emulator's tokens are 27 base64url characters; none may appear.
    assert.doesNotMatch(output, /[A-Za-z0-9_-]{27}/);
  });
});
