import { execFileSync, spawn } from "node:child_process";
import path from "node:path";
import { _cleanEnv, _repoRoot } from "../support/helpers";

/** The compiled CLI. */
export const CLI = path.join(_repoRoot(), "dist", "cli", "main.js");

/** A finished CLI run. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with a clean environment (no DNS_ACCOUNT_* but what is given), stdin from `input`. */
export function _cli(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<Run> {
  const child = spawn(process.execPath, [CLI, ...args], { env: _cleanEnv(env), stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  // A command that exits without reading its input closes the pipe: EPIPE then is no failure of the run.
  child.stdin.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
  });
  child.stdin.end(input ?? "");
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

/** True when script(1) can give a child a pseudo-terminal. */
export function _hasScript(): boolean {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs the CLI on a pseudo-terminal (script(1)), answering prompts as they appear: each answer is sent
 * once its pattern is on the screen, followed by Enter unless it is raw (`[pattern, "\x03", true]` is a
 * Ctrl-C). Waits for prompt text, never for a fixed time. `code` is the CLI's own exit code (script -e).
 */
export function _onTty(args: string[], env: NodeJS.ProcessEnv, answers: [RegExp, string, boolean?][]): Promise<Run> {
  const command = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], { env: _cleanEnv(env), stdio: ["pipe", "pipe", "pipe"] });
  let screen = "";
  let next = 0;
  let seen = 0;
  child.stdout.on("data", (d: Buffer) => {
    screen += d.toString();
    // Each answer waits for its prompt to appear after the previous answer's prompt.
    while (next < answers.length) {
      const [pattern, text, raw] = answers[next]!;
      const m = pattern.exec(screen.slice(seen));
      if (!m) break;
      seen += m.index + m[0].length;
      child.stdin.write(raw ? text : `${text}\r`);
      next++;
    }
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout: screen, stderr: "" })));
}
