import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _repoRoot } from "./helpers";

const run = promisify(execFile);

/**
 * Commits the repository's working tree as it is now (tracked and untracked files, minus what
 * `.gitignore` leaves out: `node_modules/`, `dist/`, …) into a fresh bare repository inside `parent`,
 * and returns that repository's folder. A `git clone` of it, or `npm install git+file://<it>`, sees the
 * code under test, edits not committed yet included, without touching the checkout's own git state
 * (the checkout need not even be a git repository).
 *
 * @example
 * ```ts
 * const repo = await _gitSnapshot(tmp);
 * await run("npm", ["install", `git+file://${repo}`], { cwd: program });
 * ```
 */
export async function _gitSnapshot(parent: string): Promise<string> {
  const repo = mkdtempSync(path.join(parent, "repo-"));
  const git = (...args: string[]) =>
    run("git", ["-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null", "-c", "core.bare=false", ...args], {
      cwd: repo,
      env: { ...process.env, GIT_DIR: repo, GIT_WORK_TREE: _repoRoot(), GIT_INDEX_FILE: path.join(repo, "snapshot-index") },
      maxBuffer: 16 * 1024 * 1024,
    });
  await run("git", ["init", "--quiet", "--bare", repo]);
  await git("add", "--all");
  await git("commit", "--quiet", "--no-verify", "-m", "working tree under test");
  return repo;
}
