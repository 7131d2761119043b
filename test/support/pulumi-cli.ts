import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { _cleanEnv, _repoRoot } from "./helpers";
import type { InlineRequest, InlineResult } from "./inline-driver";

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
 * Why the engine cannot run a program of `runtime` (e.g. "nodejs", "yaml"), or undefined when it can:
 * no `pulumi`, or no `pulumi-language-<runtime>` beside it (with the error the install script kept,
 * such as the Go module proxy refusing that language host's module).
 */
export function _engineMissing(runtime: string): string | undefined {
  if (!_hasPulumi()) return `no pulumi CLI (run "npm run engine")`;
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
 * Why the engine cannot run an Automation API inline program with dynamic resources, or undefined when
 * it can: no `pulumi`, or no Pulumi `pulumi-resource-pulumi-nodejs` beside it (`npm run engine` copies it
 * from the sdk/v3 module). An inline program needs no language host: the SDK serves the engine itself.
 */
export function _dynamicMissing(): string | undefined {
  if (!_hasPulumi()) return `no pulumi CLI (run "npm run engine")`;
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

/** One operation of an inline program's stack; see {@link InlineProject.run}. */
export type InlineOp = InlineRequest["op"];

/** A Pulumi project run as an Automation API inline program; see {@link _inlineProject}. */
export interface InlineProject extends PulumiProject {
  /**
   * Runs `op` (`up`, `preview`, `refresh`, `destroy`, `outputs`) on the stack in a fresh Node
   * process in the program folder, `options` passed to the Automation API (`{ replace: [urn] }`,
   * `{ expectNoChanges: true }`); rejects with Pulumi's text when the operation fails.
   */
  run(op: InlineOp, options?: Record<string, unknown>): Promise<InlineResult>;
  /** Sets stack configuration (`secret` values encrypted with the project's passphrase). */
  config(values: Record<string, { value: string; secret?: boolean }>): Promise<void>;
}

/**
 * A project whose program `main` (a CommonJS file written into the program folder; its exports become
 * the stack's outputs) runs as an Automation API inline program under the real `pulumi`, from a folder
 * where `installed` (an `npm pack` install, see _installedProgram) provides node_modules: the program,
 * the Automation API and the dynamic provider all load the installed package and its @pulumi/pulumi.
 * The environment is {@link _pulumiProject}'s; `pulumi(...)` runs CLI commands on the same stack (use
 * `pulumi("stack", "export")` for the state as stored: the Automation API's exportStack shows secrets).
 */
export function _inlineProject(prefix: string, installed: string, files: Record<string, string>, stackName = "dev"): InlineProject {
  const project = _pulumiProject(prefix);
  symlinkSync(path.join(installed, "node_modules"), path.join(project.dir, "node_modules"), "dir");
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(project.dir, name), text);
  const projectName = path.basename(path.dirname(project.dir)).replace(/[^A-Za-z0-9-]/g, "-");
  const driver = path.join(_repoRoot(), "dist", "test", "support", "inline-driver.js");
  let n = 0;
  const call = async (request: Omit<InlineRequest, "projectName" | "stackName" | "main">): Promise<InlineResult> => {
    const base = path.join(path.dirname(project.dir), `inline-${++n}`);
    writeFileSync(`${base}.request.json`, JSON.stringify({ projectName, stackName, main: "index.js", ...request }));
    try {
      await promisify(execFile)(process.execPath, [driver, `${base}.request.json`, `${base}.result.json`], { cwd: project.dir, env: project.env, maxBuffer: 64 * 1024 * 1024 });
      const result = JSON.parse(readFileSync(`${base}.result.json`, "utf8")) as InlineResult;
      if (result.error) throw new Error(`pulumi ${request.op} (inline program) failed: ${result.error}`);
      return result;
    } finally {
      rmSync(`${base}.request.json`, { force: true });
      rmSync(`${base}.result.json`, { force: true });
    }
  };
  return {
    ...project,
    run: (op, options) => call({ op, ...(options ? { options } : {}) }),
    config: async (values) => void (await call({ op: "none", config: values })),
  };
}

/**
 * Skips the suite of `ctx` (a `before` hook's `this`), printing why, when `missing` (from
 * {@link _engineMissing} or {@link _dynamicMissing}) says the engine cannot run it.
 */
export function _skipWithout(ctx: Mocha.Context, missing: string | undefined): void {
  if (missing === undefined) return;
  console.log(`      skipped: ${missing}`);
  ctx.skip();
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
