import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, realpathSync, writeFileSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _cleanEnv, _repoRoot } from "../support/helpers";
import { MOCKS_PRELUDE } from "../support/program";

const run = promisify(execFile);

describe("pulumi up at the repository root (root Pulumi.yaml)", function () {
  this.timeout(300_000);
  const root = _repoRoot();
  const program = path.join(root, "examples", "basic");

  it("runs examples/basic with the package installed from npm pack, so __provider is a require() under 1 KB", async () => {
    assert.match(readFileSync(path.join(root, "Pulumi.yaml"), "utf8"), /^main: examples\/basic\/$/m);
    await run(process.execPath, [path.join(root, "examples", "install.js"), "--quiet", "--ignore-scripts"], { cwd: root, env: _cleanEnv() });
    const installed = realpathSync(path.join(program, "node_modules", "pulumi-dns-account"));
    assert.ok(installed.includes(`${path.sep}node_modules${path.sep}`), "a real install, not a link to the checkout");
    const script = path.join(program, ".pack", "serialize.js");
    writeFileSync(
      script,
      `${MOCKS_PRELUDE}
const { Token } = require("pulumi-dns-account");
new Token("ci", { username: "ops@example.com", password: "pw", keepers: { q: "1" } });
// Printed once every registration has settled (the event loop is empty), not after a fixed delay.
process.once("beforeExit", () => console.log(JSON.stringify(resources.find((r) => r.inputs.__provider).inputs.__provider)));`,
    );
    try {
      const { stdout } = await run(process.execPath, [script], { cwd: program, env: _cleanEnv() });
      const provider = JSON.parse(stdout) as string;
      assert.ok(Buffer.byteLength(provider) <= 1024, `__provider is ${Buffer.byteLength(provider)} bytes`);
      assert.match(provider, /require\("pulumi-dns-account\/dist\/provider\/token\/provider\.js"\)/);
    } finally {
      rmSync(script, { force: true });
    }
  });
});
