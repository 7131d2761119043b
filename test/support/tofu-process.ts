import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { _tofuBin } from "./tofu-cli";
import type { TofuProject, TofuRun } from "./tofu-project";

/** A tofu command running in the background: its process (a process group of its own) and how it ended. */
export interface RunningTofu {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr, interleaved). */
  output(): string;
  /** Resolves once it exits (whatever the code; -1 for a signal). */
  done: Promise<TofuRun & { signal: NodeJS.Signals | null }>;
}

/**
 * Starts `tofu <args>` in `project` (no colour, no input) as its own process group, as a shell starts a
 * foreground job, so that a terminal's Ctrl-C can be imitated with a SIGINT to the whole group (tofu and
 * the providers it started).
 *
 * @example
 * ```ts
 * const apply = _startTofu(project, ["apply", "-auto-approve"]);
 * process.kill(-apply.child.pid!, "SIGINT");
 * const { code } = await apply.done;
 * ```
 */
export function _startTofu(project: TofuProject, args: string[]): RunningTofu {
  const child = spawn(path.join(_tofuBin(), "tofu"), [...args, "-no-color", "-input=false"], { cwd: project.dir, env: project.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let both = "";
  child.stdout!.on("data", (d: Buffer) => ((stdout += d.toString()), (both += d.toString())));
  child.stderr!.on("data", (d: Buffer) => ((stderr += d.toString()), (both += d.toString())));
  const done = new Promise<TofuRun & { signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code: code ?? -1, signal, stdout, stderr })),
  );
  return { child, output: () => both, done };
}

/** The processes whose parent is `pid` now (Linux: /proc/<pid>/task/<tid>/children). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    try {
      for (const p of readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim().split(/\s+/)) if (p) out.push(Number(p));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/**
 * The provider processes (`terraform-provider-dnsaccount`, the npm bin under Node) that `tofuPid` has
 * started and that are running now.
 *
 * @example
 * ```ts
 * const providers = _providersOf(apply.child.pid!);
 * ```
 */
export function _providersOf(tofuPid: number): number[] {
  return childrenOf(tofuPid).filter((pid) => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      return cmdline.includes(path.join("provider", "tofu", "bin.js")) || cmdline.includes("terraform-provider-dnsaccount");
    } catch {
      return false;
    }
  });
}

/** Why {@link _waitForExit} cannot wait here, or undefined when it can (Linux ≥ 5.3 and python3 ≥ 3.9, for pidfd_open). */
export function _pidfdMissing(): string | undefined {
  try {
    execFileSync("python3", ["-c", "import os, sys; os.close(os.pidfd_open(os.getpid()))"], { stdio: "ignore" });
    return undefined;
  } catch (e) {
    return `python3 with os.pidfd_open (Linux 5.3+, Python 3.9+) is needed to wait for a process that is not the test's child: ${(e as Error).message.split("\n")[0]}`;
  }
}

/** Waiters still waiting: {@link _stopWaiting} ends them (a failed test's), so that mocha can exit. */
const waiters = new Set<ChildProcess>();

/**
 * Resolves when process `pid` (not a child of the test's: it cannot be waited for with waitpid) has
 * exited: a pidfd becomes readable at that moment (python3's `os.pidfd_open` and `select`), so there is
 * no polling and no sleep. Resolves at once when it is already gone. Call {@link _stopWaiting} after
 * each test.
 *
 * @example
 * ```ts
 * afterEach(_stopWaiting);
 * await _waitForExit(providerPid);
 * ```
 */
export function _waitForExit(pid: number): Promise<void> {
  const script = "import os, select, sys\ntry:\n    fd = os.pidfd_open(int(sys.argv[1]))\nexcept ProcessLookupError:\n    sys.exit(0)\nselect.select([fd], [], [])\n";
  const waiter = spawn("python3", ["-c", script, String(pid)], { stdio: "ignore" });
  waiters.add(waiter);
  return new Promise((resolve, reject) =>
    waiter.once("exit", (code, signal) => {
      waiters.delete(waiter);
      if (code === 0) resolve();
      else reject(new Error(`waiting for process ${pid} failed (python3 ended with ${signal ?? code})`));
    }),
  );
}

/**
 * Ends the {@link _waitForExit} waiters still waiting (after a test that failed or timed out).
 *
 * @example
 * ```ts
 * afterEach(_stopWaiting);
 * ```
 */
export function _stopWaiting(): void {
  for (const waiter of waiters) waiter.kill("SIGKILL");
  waiters.clear();
}

/** Whether process `pid` is still there (and not a zombie). */
export function _processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
