import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { _cleanEnv, _repoRoot } from "./helpers";

const run = promisify(execFile);

/** The Python interpreter the tests make virtual environments with (`PYTHON`, else `python3`). */
export function _python(): string {
  return process.env.PYTHON || "python3";
}

/**
 * Why no virtual environment with pip can be made here (no Python 3, no `venv` module, no pip), or
 * undefined when one can.
 */
export function _pythonMissing(): string | undefined {
  for (const [args, what] of [
    [["--version"], `no ${_python()}`],
    [["-m", "venv", "--help"], `${_python()} has no venv module`],
    [["-m", "pip", "--version"], `${_python()} has no pip`],
  ] as const) {
    try {
      execFileSync(_python(), [...args], { stdio: "ignore" });
    } catch {
      return what;
    }
  }
  return undefined;
}

/** A virtual environment; see {@link _pythonVenv}. */
export interface PythonVenv {
  /** Its folder. */
  dir: string;
  /** Its `bin` folder (python and the scripts pip installs). */
  bin: string;
  /** Its interpreter. */
  python: string;
  /** Runs `python -m pip <args>` quietly in it; rejects with pip's output. */
  pip(...args: string[]): Promise<string>;
}

/**
 * Makes a virtual environment in `dir` (which must not exist yet) with the interpreter of {@link _python}.
 * pip keeps its downloads in `${XDG_CACHE_HOME:-~/.cache}/pulumi-dns-account/pip` between runs (as
 * test/package/sdks.test.ts does; CI keeps that folder).
 */
export async function _pythonVenv(dir: string): Promise<PythonVenv> {
  await run(_python(), ["-m", "venv", dir]);
  const bin = path.join(dir, "bin");
  const python = path.join(bin, "python");
  const cache = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-dns-account", "pip");
  const env = _cleanEnv({ PIP_CACHE_DIR: cache, PIP_DISABLE_PIP_VERSION_CHECK: "1", VIRTUAL_ENV: dir });
  const pip = async (...args: string[]): Promise<string> => {
    try {
      return (await run(python, ["-m", "pip", "--quiet", ...args], { env, maxBuffer: 16 * 1024 * 1024 })).stdout;
    } catch (err) {
      const e = err as Error & { stdout?: string; stderr?: string };
      e.message = `pip ${args[0]} failed: ${e.message}\n--- stdout\n${e.stdout ?? ""}\n--- stderr\n${e.stderr ?? ""}`;
      throw e;
    }
  };
  return { dir, bin, python, pip };
}

/**
 * Builds the wheel of the Python SDK generated from the schema (sdks/python) into `outDir` and returns
 * its path. The build runs on a copy in a temporary folder: building in place would leave `build/`
 * and `*.egg-info` in sdks/python, which the generated SDKs' staleness test counts as drift.
 */
export async function _sdkWheel(venv: PythonVenv, outDir: string): Promise<string> {
  const copy = mkdtempSync(path.join(os.tmpdir(), "dns-account-pysdk-"));
  try {
    cpSync(path.join(_repoRoot(), "sdks", "python"), copy, { recursive: true });
    await venv.pip("wheel", "--no-deps", "--no-cache-dir", "--wheel-dir", outDir, copy);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  const wheels = readdirSync(outDir).filter((f) => /^pulumi_dns_account-.*\.whl$/.test(f));
  if (wheels.length !== 1) throw new Error(`expected one pulumi_dns_account wheel in ${outDir}, found ${wheels.length}`);
  return path.join(outDir, wheels[0]!);
}
