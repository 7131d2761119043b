import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _repoRoot, _sharedDir } from "../../support/helpers";

describe("the generated model (sdk/client/model.ts)", function () {
  const shared = _sharedDir();
  const reference = shared && path.join(shared, "reference", "dns-api-openapi-1.15.json");
  before(function () {
    if (!reference) {
      console.log("      skipped: ../shared is absent (the model is checked against its reference)");
      this.skip();
    }
  });

  it("is what `npm run generate` makes from the 1.15 reference today", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(_repoRoot(), "scripts", "generate-model.mjs"), "--check", reference!]);
    assert.match(stdout, /up to date/);
  });

  it("copies no prose: no description, summary or title of the reference appears in it", () => {
    const model = readFileSync(path.join(_repoRoot(), "sdk", "client", "model.ts"), "utf8");
    const prose: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (node === null || typeof node !== "object") return;
      for (const [k, v] of Object.entries(node)) {
        if (["description", "summary", "title"].includes(k) && typeof v === "string" && v.length >= 16) prose.push(v);
        else walk(v);
      }
    };
    walk(JSON.parse(readFileSync(reference!, "utf8")));
    assert.ok(prose.length > 50, "the reference has prose to look for");
    assert.deepEqual(prose.filter((p) => model.includes(p)).length, 0);
  });
});
