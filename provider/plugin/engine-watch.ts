/**
 * Notices that the engine that started the plugin is gone (issue 32): after a SIGKILL of `pulumi up` the
 * engine never stops its plugins, which would keep listening on 127.0.0.1, answer any local caller's
 * Invoke with the account's data, and keep their logins' refresh tokens live for good.
 *
 * Two signs, both checked (each catches what the other cannot):
 * - the engine's gRPC address stops answering a health check (`grpc.health.v1.Health/Check`), as Pulumi's
 *   Go provider framework checks it (`rpcutil.Healthcheck`; UNIMPLEMENTED counts as alive, and so does a
 *   check that times out: an engine that is busy or stopped is not gone). This holds whoever started the
 *   process (a wrapper script, `npm`'s shim) and however the engine died;
 * - the parent process is gone (the plugin was re-parented): even when the plugin has no engine address
 *   (started by hand, or its address was unusable). Node reads `process.ppid` once, at start, so the
 *   system is asked ({@link stillParented}).
 *
 * The checks run when a connection to the plugin's port closes (the engine's connection closes the
 * moment the engine dies, so a killed engine is noticed at once) and every {@link DEFAULT_CHECK_MS}
 * as a backstop (an engine killed before it connected, a connection closed as idle long before).
 */
import { readFileSync } from "node:fs";

/** Why the engine is taken for gone. */
export type GoneReason = "engine-unreachable" | "parent-gone";

/** Options of {@link watchEngine}. */
export interface EngineWatchOptions {
  /** The engine's gRPC address, health-checked; without one, only the parent is watched. */
  engineAddress?: string;
  /** Resolves true while the engine at `address` answers (see {@link grpcHealthCheck}). */
  engineAlive?: (address: string) => Promise<boolean>;
  /** Milliseconds between two backstop checks (default {@link checkInterval}()). */
  intervalMs?: number;
  /** The plugin's parent at start (default: `process.ppid` now; ./listen records it before the port is printed). */
  parentPid?: number;
  /** Whether that parent is still the plugin's (default: {@link stillParented}). */
  parentAlive?: () => boolean;
  /** Called once, when the engine is found gone; the watch stops then. */
  onGone(reason: GoneReason): void;
}

/** A running watch. */
export interface EngineWatch {
  /** Checks now (a connection closed): coalesced with a check in flight, which is run again after it. */
  check(): void;
  /** Stops checking (the plugin is stopping anyway). */
  stop(): void;
}

/**
 * The backstop interval: worst case, a gone engine is noticed after this, and the plugin has revoked
 * its logins and exited within this plus the revocation's bound (5 s): within 20 s.
 */
export const DEFAULT_CHECK_MS = 5_000;

/** How long one health check waits for the engine's answer; no answer in time counts as alive (busy). */
const CHECK_DEADLINE_MS = 10_000;

/**
 * The backstop interval: `DNS_ACCOUNT_PLUGIN_HEALTH_CHECK_MS` when it is a whole number from 10 to
 * {@link DEFAULT_CHECK_MS} (tests shorten it; a longer one would break the 20 s promise), else the default.
 *
 * @example
 * ```ts
 * checkInterval({ DNS_ACCOUNT_PLUGIN_HEALTH_CHECK_MS: "200" }); // 200
 * ```
 */
export function checkInterval(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DNS_ACCOUNT_PLUGIN_HEALTH_CHECK_MS;
  if (raw === undefined || !/^\d+$/.test(raw)) return DEFAULT_CHECK_MS;
  const ms = Number(raw);
  return ms >= 10 && ms <= DEFAULT_CHECK_MS ? ms : DEFAULT_CHECK_MS;
}

/**
 * Whether the plugin's parent at start (`parent`, default `process.ppid`) is still its parent. Linux
 * tells the live parent (/proc/self/stat), re-parented the moment the parent exits, even while it waits
 * to be reaped; elsewhere the parent's existence is asked (signal 0: ESRCH once it is gone, EPERM when it
 * is another user's).
 *
 * @example
 * ```ts
 * stillParented(); // true while the engine that started the plugin runs
 * ```
 */
export function stillParented(parent: number = process.ppid): boolean {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // "<pid> (<command>) <state> <ppid> …": the command may hold spaces and parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (Number.isInteger(ppid) && ppid > 0) return ppid === parent;
  } catch {
    // No /proc: ask whether the parent exists.
  }
  try {
    process.kill(parent, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/**
 * Starts watching the engine; `onGone` runs once, the first time a check finds it gone.
 *
 * @example
 * ```ts
 * const watch = watchEngine({ engineAddress, engineAlive: grpcHealthCheck(grpc), onGone: () => stop() });
 * listener.onDisconnect(() => watch.check());
 * ```
 */
export function watchEngine(options: EngineWatchOptions): EngineWatch {
  const parent = options.parentPid ?? process.ppid;
  const parentAlive = options.parentAlive ?? (() => stillParented(parent));
  const { engineAddress, engineAlive } = options;
  let running = false;
  let again = false;
  let done = false;

  const gone = (reason: GoneReason): void => {
    if (done) return;
    done = true;
    clearInterval(timer);
    options.onGone(reason);
  };
  const run = async (): Promise<void> => {
    if (done) return;
    if (running) return void (again = true);
    running = true;
    try {
      if (!parentAlive()) return gone("parent-gone");
      if (engineAddress !== undefined && engineAlive && !(await engineAlive(engineAddress))) return gone("engine-unreachable");
    } finally {
      running = false;
      if (again && !done) {
        again = false;
        void run();
      }
    }
  };
  const timer = setInterval(() => void run(), options.intervalMs ?? checkInterval());
  // The plugin's server keeps the process alive; the watch must not keep a stopping process.
  timer.unref();
  return {
    check: () => void run(),
    stop: () => {
      done = true;
      clearInterval(timer);
    },
  };
}

/* eslint-disable @typescript-eslint/no-explicit-any -- grpc-js is loaded from @pulumi/pulumi, untyped here */

/**
 * A health check of the engine over gRPC (`grpc.health.v1.Health/Check`, an empty request), on one
 * channel kept for every check: alive when it answers, UNIMPLEMENTED, or does not answer within 10 s;
 * gone on any other error (a refused connection: nothing listens there any more), as
 * `rpcutil.Healthcheck` decides.
 *
 * @example
 * ```ts
 * const alive = await grpcHealthCheck(grpcPieces().grpc)("127.0.0.1:50051");
 * ```
 */
export function grpcHealthCheck(grpc: any): (address: string) => Promise<boolean> {
  let client: any;
  const bytes = (b: Buffer): Buffer => b;
  return (address) =>
    new Promise((resolve) => {
      try {
        client ??= new grpc.Client(address, grpc.credentials.createInsecure());
      } catch {
        return resolve(false); // no address a channel can be opened to: nothing to report to
      }
      client.makeUnaryRequest("/grpc.health.v1.Health/Check", bytes, bytes, Buffer.alloc(0), { deadline: Date.now() + CHECK_DEADLINE_MS }, (err: { code?: number } | null) => {
        resolve(!err || err.code === grpc.status.UNIMPLEMENTED || err.code === grpc.status.DEADLINE_EXCEEDED);
      });
    });
}
