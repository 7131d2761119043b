/**
 * Whether tofu, the process that started the provider, is gone (issue 34): killed (SIGKILL, a crash) it
 * never calls Shutdown, and a provider that stayed would keep listening on 127.0.0.1 and keep its
 * password login's refresh token live.
 *
 * go-plugin's own servers have no watch of their parent: a Go plugin learns that its client is gone only
 * when it next writes to stdout or stderr, pipes that only the client reads (the Go runtime ends a
 * program on a broken pipe there). The face does the same (a failed write to stderr ends it, ./main) and
 * asks this module when a connection to its port closes: tofu's gRPC connection closes the moment tofu
 * dies, and tofu reconnects when it needs the provider again, so a closed connection with tofu alive is
 * nothing to act on.
 *
 * The kernel closes a killed process's sockets before it re-parents its children, so at that moment the
 * provider may still see tofu as its parent. But every thread of a dying process is marked exiting
 * (`PF_EXITING`, in the flags of `/proc/<pid>/stat`) before its files close, so tofu counts as gone when
 * it is no longer the parent, is a zombie, or is exiting. The face also asks every second (./main's
 * backstop): a tofu killed before it connected closes no connection, and a close seen before tofu looks
 * gone (ruled out above, but one CI run waited in vain for a killed tofu's provider, cause not found) is
 * caught at the next check.
 */
import { readFileSync } from "node:fs";

/** The kernel's `PF_EXITING` task flag: set as a process starts to exit, before its files are closed. */
const PF_EXITING = 0x4;

/**
 * What `/proc/<pid>/stat` says of a process: its state letter, parent and kernel flags; undefined when
 * there is no such process (or no /proc).
 *
 * @example
 * ```ts
 * procStat("self")?.ppid; // the live parent, not the one Node read at start
 * ```
 */
export function procStat(pid: number | "self"): { state: string; ppid: number; flags: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // "<pid> (<command>) <state> <ppid> <pgrp> <session> <tty> <tpgid> <flags> …": the command may hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ppid = Number(fields[1]);
  const flags = Number(fields[6]);
  if (!fields[0] || !Number.isInteger(ppid) || !Number.isInteger(flags)) return undefined;
  return { state: fields[0], ppid, flags };
}

/**
 * Whether `parent` (tofu, the provider's parent at start) is gone: the provider was re-parented, or tofu
 * is a zombie or exiting. Without /proc (not Linux), whether `parent` still exists.
 *
 * @example
 * ```ts
 * if (parentGone(parentAtStart)) void end("tofu is gone");
 * ```
 */
export function parentGone(parent: number): boolean {
  const self = procStat("self");
  if (self) {
    if (self.ppid !== parent) return true;
    const tofu = procStat(parent);
    return !tofu || tofu.state === "Z" || tofu.state === "X" || (tofu.flags & PF_EXITING) !== 0;
  }
  try {
    process.kill(parent, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}
