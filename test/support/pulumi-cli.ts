import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { _cleanEnv, _repoRoot } from "./helpers";

/** The version of `@pulumi/pulumi` in package-lock.json: the engine version the tests run. */
export function _engineVersion(): string {
  const lock = JSON.parse(readFileSync(path.join(_repoRoot(), "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string }> };
  return lock.packages["node_modules/@pulumi/pulumi"]!.version!;
}

/**
 * The engine's folder as `scripts/install-pulumi-engine.sh` leaves it
 * (`${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-dns-account/engine/<version>/bin`); `PULUMI_ENGINE_BIN` overrides it.
 */
export function _engineBin(): string {
  if (process.env.PULUMI_ENGINE_BIN) return process.env.PULUMI_ENGINE_BIN;
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(cache, "pulumi-dns-account", "engine", _engineVersion(), "bin");
}

/** The engine's `pulumi`, or undefined when the script has not built it. */
function enginePulumi(): string | undefined {
  const file = path.join(_engineBin(), "pulumi");
  return existsSync(file) ? file : undefined;
}

/** True when the real `pulumi` CLI is there: the one `npm run engine` built, else one on PATH. */
export function _hasPulumi(): boolean {
  try {
    execFileSync(enginePulumi() ?? "pulumi", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Why the engine cannot run a program of each of `runtimes` (e.g. "nodejs", "yaml"), or undefined when
 * it can: no `pulumi`, or no `pulumi-language-<runtime>` beside it (with the error the install script
 * kept, such as the Go module proxy refusing that language host's module). The first reason is given.
 *
 * @example
 * ```ts
 * before(() => _failWithout(_engineMissing("nodejs", "python")));
 * ```
 */
export function _engineMissing(...runtimes: string[]): string | undefined {
  if (!_hasPulumi()) return `no pulumi CLI (run "npm run engine")`;
  for (const runtime of runtimes) {
    const missing = languageHostMissing(runtime);
    if (missing) return missing;
  }
  return undefined;
}

/** Why `pulumi-language-<runtime>` is not there, or undefined when it is. */
function languageHostMissing(runtime: string): string | undefined {
  const host = `pulumi-language-${runtime}`;
  if (!enginePulumi()) {
    try {
      execFileSync("which", [host], { stdio: "ignore" });
      return undefined;
    } catch {
      return `no ${host} on PATH`;
    }
  }
  if (existsSync(path.join(_engineBin(), host))) return undefined;
  const why = path.join(path.dirname(_engineBin()), "unavailable", host);
  return existsSync(why) ? `${host} is not built: ${readFileSync(why, "utf8").trim()}` : `${host} is not built (run "npm run engine")`;
}

/** A Pulumi project folder with its own engine environment; see {@link _pulumiProject}. */
export interface PulumiProject {
  /** The program folder (`Pulumi.yaml` goes here). */
  dir: string;
  /** The environment every `pulumi` command of this project runs with. */
  env: NodeJS.ProcessEnv;
  /** Runs `pulumi <args> --non-interactive` in `dir`; resolves its stdout (rejects with stdout and stderr on failure). */
  pulumi(...args: string[]): Promise<string>;
  /** Removes the folder, its state and its PULUMI_HOME. */
  remove(): void;
}

/**
 * A folder for a Pulumi project that touches nothing of the user's: a `file://` backend and a
 * `PULUMI_HOME` inside it, a passphrase secrets provider, no update check, no plugin download
 * (`PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION`), and the engine's folder first on PATH so that
 * `pulumi` and its language hosts are the ones `npm run engine` built. `extraEnv` is added last
 * (a `PATH` there goes before the engine's folder, for plugins found on PATH).
 */
export function _pulumiProject(prefix: string, extraEnv: NodeJS.ProcessEnv = {}): PulumiProject {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  const dir = path.join(root, "program");
  for (const d of [dir, path.join(root, "state"), path.join(root, "home")]) mkdirSync(d);
  const basePath = enginePulumi() ? `${_engineBin()}${path.delimiter}${process.env.PATH ?? ""}` : (process.env.PATH ?? "");
  const env: NodeJS.ProcessEnv = {
    ..._cleanEnv(),
    PULUMI_HOME: path.join(root, "home"),
    PULUMI_BACKEND_URL: `file://${path.join(root, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    ...extraEnv,
    PATH: extraEnv.PATH ? `${extraEnv.PATH}${path.delimiter}${basePath}` : basePath,
  };
  const pulumiBin = enginePulumi() ?? "pulumi";
  const pulumi = async (...args: string[]): Promise<string> => {
    try {
      return (await promisify(execFile)(pulumiBin, [...args, "--non-interactive"], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
    } catch (err) {
      const e = err as Error & { stdout?: string; stderr?: string };
      e.message = `pulumi ${args[0]} failed: ${e.message}\n--- stdout\n${e.stdout ?? ""}\n--- stderr\n${e.stderr ?? ""}`;
      throw e;
    }
  };
  return { dir, env, pulumi, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** One gRPC call as `PULUMI_DEBUG_GRPC` records it (protobuf messages in their JSON form). */
export interface GrpcCall {
  method: string;
  request: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- protobuf JSON
  response: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- protobuf JSON
  errors?: string[];
  metadata?: Record<string, unknown>;
}

/** The calls in a `PULUMI_DEBUG_GRPC` log file, oldest first (none when the file is absent). */
export function _grpcCalls(file: string): GrpcCall[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as GrpcCall)
    .map((c) => ({ ...c, request: c.request ?? {}, response: c.response ?? {} }));
}

/**
 * Why the engine cannot run a Node.js program with dynamic resources, or undefined when it can: no
 * `pulumi`, no `pulumi-language-nodejs`, or no Pulumi `pulumi-resource-pulumi-nodejs` beside it
 * (`npm run engine` builds the host and copies the provider from the sdk/v3 module).
 */
export function _dynamicMissing(): string | undefined {
  const host = _engineMissing("nodejs");
  if (host) return host;
  const plugin = "pulumi-resource-pulumi-nodejs";
  if (!enginePulumi()) {
    try {
      execFileSync("which", [plugin], { stdio: "ignore" });
      return undefined;
    } catch {
      return `no ${plugin} on PATH`;
    }
  }
  return existsSync(path.join(_engineBin(), plugin)) ? undefined : `${plugin} is not beside pulumi (run "npm run engine")`;
}

/** One operation of a Node.js program's stack; see {@link NodeProgramProject.run}. */
export type ProgramOp = "up" | "preview" | "refresh" | "destroy" | "outputs";

/** What an operation gave: what `pulumi` printed, the summary's counts, the stack's outputs after it. */
export interface ProgramResult {
  stdout: string;
  /** `pulumi up`/`refresh`/`destroy`: the Resources: summary as {@link _summaryCounts} gives it. */
  summary?: { resourceChanges?: Record<string, number> };
  /** `pulumi preview`: the same counts. */
  changeSummary?: Record<string, number>;
  /** Each output's value (secrets shown) and whether it is secret. */
  outputs?: Record<string, { value: unknown; secret: boolean }>;
}

/** A Node.js program project run by the real `pulumi` CLI; see {@link _nodeProgramProject}. */
export interface NodeProgramProject extends PulumiProject {
  /**
   * Runs `pulumi <op>` on the stack (`up`/`refresh`/`destroy` with `--yes --skip-preview`), `options`
   * as flags: `{ replace: [urn] }` → `--replace urn`, `{ expectNoChanges: true }` →
   * `--expect-no-changes`; rejects with Pulumi's text when the command fails.
   */
  run(op: ProgramOp, options?: { replace?: string[]; expectNoChanges?: boolean }): Promise<ProgramResult>;
  /** Sets stack configuration (`secret` values with `--secret`, encrypted with the project's passphrase). */
  config(values: Record<string, { value: string; secret?: boolean }>): Promise<void>;
}

/**
 * The counts of the last "Resources:" summary `pulumi` printed in `text` (`up`, `refresh`, `destroy`:
 * `+ 4 created`, `= 2 imported`; `preview`: `+ 4 to create`; `5 changes. 1 unchanged`), keyed
 * create, update, replace, delete, same, import; empty when there is no summary.
 *
 * @example
 * ```ts
 * assert.deepEqual(_summaryCounts(await project.pulumi("up", "--yes")), { create: 3 });
 * ```
 */
export function _summaryCounts(text: string): Record<string, number> {
  const at = text.lastIndexOf("Resources:");
  const counts: Record<string, number> = {};
  if (at < 0) return counts;
  const words: Record<string, string> = { created: "create", updated: "update", replaced: "replace", deleted: "delete", imported: "import", unchanged: "same" };
  // Up to the blank line that ends the summary; "unchanged" may follow a total on its line.
  const summary = text.slice(at).split(/\n\s*\n/)[0]!;
  for (const m of summary.matchAll(/\b(\d+) (?:to )?(create|update|delete|replace|import|created|updated|deleted|replaced|imported|unchanged)\b/g)) {
    const word = m[2]!;
    counts[words[word] ?? word] = Number(m[1]);
  }
  return counts;
}

/**
 * A Pulumi project of `runtime: nodejs` whose program `main` (a CommonJS file written into the program
 * folder; its exports become the stack's outputs) runs under the real `pulumi` CLI and Pulumi's Node.js
 * language host (`npm run engine` builds it), from a folder where `installed` (an `npm pack` install, see
 * _installedProgram) provides node_modules: the program and the dynamic provider load the installed
 * package and its @pulumi/pulumi, as a user's program does. The environment is {@link _pulumiProject}'s;
 * the stack `stackName` is made on the first operation.
 */
export function _nodeProgramProject(prefix: string, installed: string, files: Record<string, string>, stackName = "dev"): NodeProgramProject {
  const project = _pulumiProject(prefix);
  symlinkSync(path.join(installed, "node_modules"), path.join(project.dir, "node_modules"), "dir");
  const projectName = path.basename(path.dirname(project.dir)).replace(/[^A-Za-z0-9-]/g, "-");
  const main = "index.js" in files ? "index.js" : undefined;
  if (!("Pulumi.yaml" in files)) writeFileSync(path.join(project.dir, "Pulumi.yaml"), `name: ${projectName}\nruntime: nodejs\n${main ? `main: ${main}\n` : ""}`);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(project.dir, name), text);
  let stack: Promise<void> | undefined;
  const ensureStack = (): Promise<void> => (stack ??= project.pulumi("stack", "init", stackName).then(() => undefined));
  const outputs = async (): Promise<Record<string, { value: unknown; secret: boolean }>> => {
    const shown = JSON.parse(await project.pulumi("stack", "output", "--json", "--show-secrets")) as Record<string, unknown>;
    const masked = JSON.parse(await project.pulumi("stack", "output", "--json")) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(shown).map(([k, value]) => [k, { value, secret: masked[k] === "[secret]" && value !== "[secret]" }]));
  };
  return {
    ...project,
    async run(op, options = {}) {
      await ensureStack();
      if (op === "outputs") return { stdout: "", outputs: await outputs() };
      const flags = op === "preview" ? [] : ["--yes", "--skip-preview"];
      for (const urn of options.replace ?? []) flags.push("--replace", urn);
      if (options.expectNoChanges) flags.push("--expect-no-changes");
      const stdout = await project.pulumi(op, ...flags);
      const counts = _summaryCounts(stdout);
      if (op === "preview") return { stdout, changeSummary: counts };
      return { stdout, summary: { resourceChanges: counts }, outputs: op === "destroy" ? {} : await outputs() };
    },
    async config(values) {
      await ensureStack();
      for (const [key, { value, secret }] of Object.entries(values)) {
        await project.pulumi("config", "set", ...(secret ? ["--secret"] : []), key, value);
      }
    },
  };
}

/**
 * Fails the suite (throws from its `before` hook) when `missing` (from {@link _engineMissing} or
 * {@link _dynamicMissing}) says the engine cannot run it: the real-engine suite never goes green without
 * the engine or a language host (issue 33 §1). `npm run engine` builds them all.
 */
export function _failWithout(missing: string | undefined): void {
  if (missing === undefined) return;
  throw new Error(`the real engine cannot run this: ${missing}`);
}

/** Options of {@link _stackProject}. */
export interface StackProjectOptions {
  /** The program's `Pulumi.yaml`. */
  program: string;
  /** Stack config set after `stack init dev`: a string, or `{ secret }` for `config set --secret`. */
  config: Record<string, string | { secret: string }>;
  /** Environment added to {@link _pulumiProject}'s (a `PATH` goes first, e.g. an installed plugin's folder). */
  env?: NodeJS.ProcessEnv;
}

/**
 * The set-up the engine tests share: a {@link _pulumiProject} with `program` as its Pulumi.yaml, the
 * stack `dev` initialised and `config` set in it (secrets with `--secret`, encrypted by the passphrase).
 */
export async function _stackProject(prefix: string, options: StackProjectOptions): Promise<PulumiProject> {
  const project = _pulumiProject(prefix, options.env);
  try {
    writeFileSync(path.join(project.dir, "Pulumi.yaml"), options.program);
    await project.pulumi("stack", "init", "dev");
    for (const [key, value] of Object.entries(options.config)) {
      if (typeof value === "string") await project.pulumi("config", "set", key, value);
      else await project.pulumi("config", "set", "--secret", key, value.secret);
    }
    return project;
  } catch (err) {
    project.remove();
    throw err;
  }
}
