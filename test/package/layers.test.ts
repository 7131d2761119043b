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
  it("the options rule fires: a layer that imports the user's input (not the resolved config) fails the lint; the resolve step and entry points pass", async () => {
    const dir = temp("dns-account-options-");
    const file = (rel: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    };
    file("tsconfig.json", JSON.stringify({ compilerOptions: { module: "Node16", moduleResolution: "Node16", strict: true }, include: ["sdk", "provider"] }));
    file("sdk/config/input.ts", "export interface ClientOptions { timeoutMs?: number }\n");
    file("sdk/config/client-input.ts", 'import type { ClientOptions } from "./input";\nexport type SharedClientOptions = ClientOptions;\n');
    file("sdk/config/resolved.ts", "export interface ClientConfig { readonly timeoutMs: number }\n");
    file("sdk/config/resolve.ts", 'import type { ClientOptions } from "./input";\nimport type { ClientConfig } from "./resolved";\nexport const resolve = (o: ClientOptions): ClientConfig => ({ timeoutMs: o.timeoutMs ?? 1 });\n');
    // An entry point: takes the input and hands it to the resolver.
    file("sdk/client/client.ts", 'import type { ClientOptions } from "../config/input";\nimport { resolve } from "../config/resolve";\nexport const make = (o: ClientOptions) => resolve(o);\n');
    // Layers reading the resolved config: fine.
    file("sdk/http/retry.ts", 'import type { ClientConfig } from "../config/resolved";\nexport const wait = (c: ClientConfig) => c.timeoutMs;\n');
    // Layers reading the raw input: each fails.
    file("sdk/http/transport.ts", 'import type { ClientOptions } from "../config/input";\nexport const timeout = (o: ClientOptions) => o.timeoutMs ?? 30_000;\n');
    file("sdk/client/groups/devices.ts", 'import type { SharedClientOptions } from "../../config/client-input";\nexport const t = (o: SharedClientOptions) => o.timeoutMs;\n');
    file("provider/lookups.ts", 'import type { ClientOptions } from "../sdk/config/input";\nexport const t = (o: ClientOptions) => o.timeoutMs;\n');
    const r = await cruise(dir, ["sdk", "provider"]);
    assert.notEqual(r.code, 0);
    assert.deepEqual(r.rules, ["options-resolved-once"]);
    const offenders = [...r.out.matchAll(/^\s*error options-resolved-once: (\S+)/gm)].map((m) => m[1]).sort();
    assert.deepEqual(offenders, ["provider/lookups.ts", "sdk/client/groups/devices.ts", "sdk/http/transport.ts"]);
  });
});
