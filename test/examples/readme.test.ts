import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _repoRoot } from "../support/helpers";

describe("README", () => {
  it("the client example runs as pasted, from the repository folder", async () => {
    const root = _repoRoot();
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    const block = /```js\n\/\/ example\.mjs\n([\s\S]*?)```/.exec(readme);
    assert.ok(block, "README has the example.mjs block");
    // Inside the package folder, so "pulumi-dns-account/…" resolves to this package as for a user.
    const dir = path.join(root, ".tmp");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "readme-example.mjs");
    writeFileSync(file, block[1]!);
    const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: root });
    assert.match(stdout, /^devices: 0\/10$/m);
    assert.match(stdout, /^created device [0-9a-f]+: https:\/\//m);
    assert.match(stdout, /^operations: \d+$/m);
  });

  it("names the test command CI runs", () => {
    const readme = readFileSync(path.join(_repoRoot(), "README.md"), "utf8");
    assert.match(readme, /npm test/);
    assert.match(readFileSync(path.join(_repoRoot(), ".ci", "run"), "utf8"), /^npm test /m);
  });
});
