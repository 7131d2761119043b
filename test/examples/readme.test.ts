import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { _repoRoot } from "../support/helpers";

// The README's code blocks themselves (example.mjs included) run in readme-blocks.test.ts, in a fresh clone.
describe("README", () => {
  it("names the test command CI runs", () => {
    const readme = readFileSync(path.join(_repoRoot(), "README.md"), "utf8");
    assert.match(readme, /npm test/);
    assert.match(readFileSync(path.join(_repoRoot(), ".ci", "run"), "utf8"), /^npm test /m);
  });
});
