import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _repoRoot } from "../support/helpers";
import { _useTempDirs } from "../support/temp";

const run = promisify(execFile);
const root = _repoRoot();
const depcruise = path.join(root, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
const CONFIG = path.join(root, ".dependency-cruiser.cjs");

/** Runs dependency-cruiser with the project's rules in `cwd`; its exit code and the rules it names. */
async function cruise(cwd: string, folders: string[]): Promise<{ code: number; rules: string[]; out: string }> {
  const r = await run(process.execPath, [depcruise, ...folders, "--config", CONFIG, "--output-type", "err-long"], { cwd }).then(
    (ok) => ({ code: 0, out: ok.stdout }),
    (err: { code?: number; stdout?: string }) => ({ code: err.code ?? 1, out: err.stdout ?? "" }),
  );
  return { ...r, rules: [...new Set([...r.out.matchAll(/^\s*error (\S+):/gm)].map((m) => m[1]!))].sort() };
}

/** Issue 26: the layers hold — the CLI on top, no circles — and the rules that say so can fail. */
describe("layers: the CLI on top, sdk/ and emulator/ below, no import circle", function () {
  this.timeout(120_000);
  const temp = _useTempDirs();

  it("the tree keeps every rule (what `npm run lint` checks)", async () => {
    const r = await cruise(root, ["sdk", "emulator", "provider", "cli", "bench", "test"]);
    assert.equal(r.code, 0, r.out);
  });

  it("the rules fire: sdk/ importing cli/ or provider/, emulator/ importing cli/, and a type-only circle each fail the lint", async () => {
    const dir = temp("dns-account-layers-");
    const file = (rel: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    };
    file("tsconfig.json", JSON.stringify({ compilerOptions: { module: "Node16", moduleResolution: "Node16", strict: true }, include: ["sdk", "emulator", "provider", "cli"] }));
    file("cli/main.ts", "export const main = 1;\n");
    file("provider/p.ts", "export const p = 1;\n");
    file("sdk/a.ts", 'import { main } from "../cli/main";\nimport { p } from "../provider/p";\nexport const a = [main, p];\n');
    file("emulator/e.ts", 'import { main } from "../cli/main";\nexport const e = main;\n');
    file("sdk/x.ts", 'import type { Y } from "./y";\nexport interface X { y?: Y }\n');
    file("sdk/y.ts", 'import type { X } from "./x";\nexport interface Y { x?: X }\n');
    const r = await cruise(dir, ["sdk", "emulator", "provider", "cli"]);
    assert.notEqual(r.code, 0);
    assert.deepEqual(r.rules, ["cli-is-the-top-floor", "emulator-below-cli-and-provider", "no-circular", "sdk-below-everything"]);
  });
});
