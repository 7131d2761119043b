import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import http from "node:http";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { _cleanEnv, _repoRoot } from "./helpers";
import { _installedProgram } from "./program";
import { _engineVersion, _pulumiProject, type PulumiProject } from "./pulumi-cli";

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/**
 * How a release's package is built from its commit, as its own package.json did it then (0.2.0: no
 * `prepare`; `npm pack` runs `prepack`, which is `tsc -p tsconfig.json`). Part of the cache key: a change
 * here builds again.
 */
const RECIPE = [
  "git archive --format=tar <commit> | tar -x",
  "npm ci --no-audit --no-fund --prefer-offline",
  "npm pack --pack-destination <out>",
] as const;

const built = new Map<string, Promise<string>>();

/**
 * The `npm pack` tarball of this package as the commit `commit` (a release: `1bd26aa` is 0.2.0) built it,
 * from this repository's own history: `git archive` into a temporary folder (the checkout is only read),
 * `npm ci` there and `npm pack` (its `prepack` compiles). Cached machine-wide in
 * `${XDG_CACHE_HOME:-~/.cache}/pulumi-dns-account/releases/<commit>-<key>/`, the key a hash of everything
 * that decides the tarball's content: the full commit id (its sources and lockfile), the recipe above,
 * and the Node.js major and npm version that run it. Fails, naming the commit, when the checkout's history
 * does not hold it (a shallow clone: fetch the full history).
 *
 * @example
 * ```ts
 * const tarball = await _releaseTarball("1bd26aa"); // …/pulumi-dns-account-0.2.0.tgz
 * ```
 */
export function _releaseTarball(commit: string): Promise<string> {
  let pending = built.get(commit);
  if (!pending) {
    pending = buildRelease(commit);
    built.set(commit, pending);
  }
  return pending;
}

async function buildRelease(commit: string): Promise<string> {
  const repo = _repoRoot();
  let full: string;
  const resolve = async (): Promise<string> => (await run("git", ["rev-parse", "--verify", "--quiet", `${commit}^{commit}`], { cwd: repo })).stdout.trim();
  try {
    full = await resolve();
  } catch {
    // A shallow clone lacks the release's commit: fetch that one commit from where the clone came from
    // (by its full id, which `commit` must then be), and only then give up.
    try {
      if (!/^[0-9a-f]{40}$/.test(commit)) throw new Error("not a full commit id");
      await run("git", ["fetch", "--quiet", "--depth=1", "origin", commit], { cwd: repo });
      full = await resolve();
    } catch {
      throw new Error(`the repository's history has no commit ${commit}, and it could not be fetched from origin (a shallow clone? run "git fetch --unshallow")`);
    }
  }
  const npmVersion = (await run(npm, ["--version"])).stdout.trim();
  const key = createHash("sha256")
    .update(JSON.stringify({ full, recipe: RECIPE, node: process.versions.node.split(".")[0], npm: npmVersion }))
    .digest("hex")
    .slice(0, 16);
  const cacheRoot = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-dns-account", "releases");
  const cached = path.join(cacheRoot, `${full.slice(0, 12)}-${key}`);
  const tarballIn = (dir: string): string | undefined => (existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith(".tgz")) : undefined);
  const hit = tarballIn(cached);
  if (hit) return path.join(cached, hit);

  const work = mkdtempSync(path.join(os.tmpdir(), "dns-account-release-"));
  try {
    const src = path.join(work, "src");
    const out = path.join(work, "out");
    mkdirSync(src);
    mkdirSync(out);
    await run("git", ["archive", "--format=tar", "-o", path.join(work, "src.tar"), full], { cwd: repo });
    await run("tar", ["-xf", path.join(work, "src.tar"), "-C", src]);
    const env = _cleanEnv();
    await run(npm, ["ci", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: src, env, maxBuffer: 16 * 1024 * 1024 });
    await run(npm, ["pack", "--pack-destination", out], { cwd: src, env, maxBuffer: 16 * 1024 * 1024 });
    const tgz = tarballIn(out);
    if (!tgz) throw new Error(`npm pack of ${commit} made no tarball`);
    // Into the cache in one step: a folder renamed into place, so a reader sees all of it or nothing.
    mkdirSync(cacheRoot, { recursive: true });
    try {
      renameSync(out, cached);
    } catch (err) {
      if (!tarballIn(cached)) throw err; // another run put it there first: use theirs
    }
    return path.join(cached, tarballIn(cached)!);
  } finally {
    rmSync(work, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** The `npm pack` tarball of the code under test (the one {@link _installedProgram} installed). */
export async function _currentTarball(): Promise<string> {
  const dir = await _installedProgram();
  const tgz = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  if (!tgz) throw new Error(`no tarball in ${dir}`);
  return path.join(dir, tgz);
}

/** A Pulumi project with its own node_modules; see {@link _packageProject}. */
export interface PackageProject extends PulumiProject {
  /** `npm install <tarball>` in the program folder: this package from that tarball, over what was there. */
  install(tarball: string): Promise<void>;
  /** Writes `files` into the program folder (Pulumi.yaml, index.js, …). */
  write(files: Record<string, string>): void;
  /** Runs `pulumi <op> --yes --skip-preview` (`up`, `refresh`, `destroy`) and returns what it printed. */
  apply(op: "up" | "refresh" | "destroy"): Promise<string>;
}

/**
 * A {@link _pulumiProject} whose program folder has a node_modules of its own (so that a test can install
 * one version of this package and then another over it, as a user upgrades), with its `.bin` first on
 * PATH (the `pulumi-resource-dns-account` plugin that `npm install` put there is the one the engine runs).
 * `@pulumi/pulumi` is the lockfile's version. The stack `dev` is made, with `config` set in it.
 *
 * @example
 * ```ts
 * const p = await _packageProject("dns-account-upgrade-", { "Pulumi.yaml": program }, { "dns-account:apiKey": { secret: key } });
 * await p.install(await _releaseTarball("1bd26aa"));
 * await p.apply("up");
 * ```
 */
export async function _packageProject(prefix: string, files: Record<string, string>, config: Record<string, string | { secret: string }>): Promise<PackageProject> {
  const project = _pulumiProject(prefix);
  // The environment object is the one every `pulumi` command of the project runs with.
  project.env.PATH = `${path.join(project.dir, "node_modules", ".bin")}${path.delimiter}${project.env.PATH ?? ""}`;
  const write = (more: Record<string, string>): void => {
    for (const [name, text] of Object.entries(more)) writeFileSync(path.join(project.dir, name), text);
  };
  try {
    writeFileSync(path.join(project.dir, "package.json"), JSON.stringify({ name: "dns-account-upgrade-program", private: true, dependencies: { "@pulumi/pulumi": _engineVersion() } }));
    write(files);
    await project.pulumi("stack", "init", "dev");
    for (const [key, value] of Object.entries(config)) {
      if (typeof value === "string") await project.pulumi("config", "set", key, value);
      else await project.pulumi("config", "set", "--secret", key, value.secret);
    }
  } catch (err) {
    project.remove();
    throw err;
  }
  return {
    ...project,
    write,
    async install(tarball) {
      await run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball], { cwd: project.dir, env: _cleanEnv(), maxBuffer: 16 * 1024 * 1024 });
    },
    apply: (op) => project.pulumi(op, "--yes", "--skip-preview"),
  };
}

/** Reads a file of the program folder (for assertions on what npm installed). */
export function _programFile(project: PulumiProject, ...parts: string[]): string {
  return readFileSync(path.join(project.dir, ...parts), "utf8");
}

/** A request that passed through a {@link _recordingProxy}. */
export interface ProxiedRequest {
  method: string;
  path: string;
}

/**
 * An HTTP proxy in front of `target` (an emulator's URL) that records the method and path of every
 * request it forwards, so a test can see what a program wrote to the service (the emulator records only
 * its token endpoints). The Host header is rewritten to the target's, as the emulator accepts only its own.
 *
 * @example
 * ```ts
 * const proxy = await _recordingProxy(emu.url); // give programs proxy.url as their base URL
 * const writes = proxy.requests.filter((r) => r.method !== "GET");
 * await proxy.close();
 * ```
 */
export async function _recordingProxy(target: string): Promise<{ url: string; requests: ProxiedRequest[]; close(): Promise<void> }> {
  const to = new URL(target);
  const requests: ProxiedRequest[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? "", path: new URL(req.url ?? "/", to).pathname });
    const out = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
