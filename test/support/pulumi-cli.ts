import { execFile, execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

/** True when the real `pulumi` CLI is on PATH. */
export function _hasPulumi(): boolean {
  try {
    execFileSync("pulumi", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * A Pulumi project in `dir` (an empty folder the caller made and removes, e.g. with `_useTempDirs`) with
 * a local file backend, and a runner of `pulumi` in it (non-interactive, no update check). `extraEnv` is
 * added to this process's environment.
 */
export function _pulumiProject(dir: string, extraEnv: NodeJS.ProcessEnv = {}): { dir: string; env: NodeJS.ProcessEnv; pulumi(...args: string[]): Promise<string> } {
  mkdirSync(path.join(dir, "state"));
  const env = { ...process.env, PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase", PULUMI_BACKEND_URL: `file://${path.join(dir, "state")}`, PULUMI_SKIP_UPDATE_CHECK: "true", ...extraEnv };
  const pulumi = async (...args: string[]) => (await promisify(execFile)("pulumi", [...args, "--non-interactive"], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  return { dir, env, pulumi };
}
