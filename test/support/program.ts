import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _cleanEnv, _repoRoot } from "./helpers";
import { _runTempDir } from "./temp";

const run = promisify(execFile);
let installed: Promise<string> | undefined;

/**
 * A temporary Pulumi program folder with this package installed from its `npm pack` tarball beside
 * @pulumi/pulumi, as a user would have it. Made once per test run, removed after the last suite.
 */
export function _installedProgram(): Promise<string> {
  installed ??= (async () => {
    const dir = _runTempDir("dns-account-program-");
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    // The faces' bundles from the sources as they are (a bare `tsc` leaves the last build's): as `npm run build` makes them.
    await run(process.execPath, [path.join(_repoRoot(), "scripts", "bundle.mjs")], { cwd: _repoRoot() });
    await run(npm, ["pack", "--pack-destination", dir, "--ignore-scripts"], { cwd: _repoRoot() });
    const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
    const pkg = JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({
        name: "dns-account-test-program",
        private: true,
        dependencies: { "pulumi-dns-account": `file:./${tarball}`, "@pulumi/pulumi": pkg.devDependencies["@pulumi/pulumi"] },
        // What the TypeScript examples' package.json adds: Pulumi's Node.js host compiles index.ts with them.
        devDependencies: { typescript: pkg.devDependencies.typescript, "@types/node": pkg.devDependencies["@types/node"] },
      }),
    );
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: dns-account-test\nruntime: nodejs\n");
    await run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
    return dir;
  })();
  return installed;
}

/** Writes a script into the program folder and runs it there; returns its stdout and stderr. */
export async function _runInProgram(
  name: string,
  source: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ stdout: string; stderr: string }> {
  const dir = await _installedProgram();
  mkdirSync(path.join(dir, "scripts"), { recursive: true });
  const file = path.join(dir, "scripts", `${name}.js`);
  writeFileSync(file, source);
  return run(process.execPath, [file], { cwd: dir, env: _cleanEnv(env), maxBuffer: 16 * 1024 * 1024 });
}

/** A program script prelude: mocks that record every resource's inputs; `registered(match)` waits for one. */
export const MOCKS_PRELUDE = `
const pulumi = require("@pulumi/pulumi");
const resources = [];
const waiters = [];
// Resolves with the first resource (already registered or still to come) that matches: an event, not a delay.
const registered = (match) => new Promise((resolve) => { const r = resources.find(match); if (r) resolve(r); else waiters.push({ match, resolve }); });
pulumi.runtime.setMocks({
  newResource: (args) => { const r = { type: args.type, name: args.name, inputs: args.inputs }; resources.push(r); for (const w of waiters.splice(0)) { if (w.match(r)) w.resolve(r); else waiters.push(w); } return { id: args.name + "-id", state: { ...args.inputs, accessToken: "mock-access", refreshToken: "mock-refresh" } }; },
  call: () => ({}),
}, "dns-account-test", "dev", false);
const settle = (o) => new Promise((resolve) => o.apply(resolve));
`;

/**
 * A program script fragment (after {@link MOCKS_PRELUDE}): records in `sent` what the SDK sends the engine
 * for each resource — type, additionalSecretOutputs and the input object with its secret markers.
 */
export const RECORD_REGISTRATIONS = `
const monitor = pulumi.runtime.getMonitor();
const sent = [];
const original = monitor.registerResource.bind(monitor);
monitor.registerResource = (req, cb) => {
  sent.push({ type: req.getType(), secretOutputs: req.getAdditionalsecretoutputsList(), object: req.getObject().toJavaScript() });
  return original(req, cb);
};
`;
