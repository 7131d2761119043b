/**
 * The plugin's port, opened before anything else of the plugin is loaded (issue 25): the listener both
 * faces share (../shared/waiting-listener), whose connections wait, unread, until the gRPC server takes
 * them over through grpc-js's connection injector (./server). The engine reads the port as soon as it is
 * printed and dials while the plugin loads its server; its first call is answered once the server is up,
 * no later than when the server bound the port itself (the connection waited in the kernel's backlog
 * then, as it waits here).
 *
 * This module loads only `node:net` (through ../shared/waiting-listener): the npm bin (./bin) runs it
 * before reading the plugin's bundle.
 */
import { listenWaiting, type WaitingListener } from "../shared/waiting-listener";

/**
 * An open port whose connections are handed, in order, to whoever {@link Listener.take}s them
 * (../shared/waiting-listener), with the process's parent when it was opened.
 *
 * @example
 * ```ts
 * const listener: Listener = await listen();
 * watchEngine({ parentPid: listener.parentPid, onGone });
 * ```
 */
export interface Listener extends WaitingListener {
  /**
   * The process's parent when the port was opened, before it was printed: the engine (or whatever started
   * the plugin) was there then. Read this early because the plugin only learns later that it is orphaned
   * (./engine-watch), when the parent it had may no longer be known.
   */
  readonly parentPid: number;
}

/**
 * Listens on 127.0.0.1 on a port the system picks, and resolves once it is listening. A connection's
 * close, taken or not, is told to {@link Listener.onDisconnect}: the engine's closes when the engine goes
 * away, killed or not (./engine-watch then checks whether it is gone).
 *
 * @example
 * ```ts
 * const listener = await listen();
 * process.stdout.write(`${listener.port}\n`);
 * listener.take((socket) => injector.injectConnection(socket));
 * ```
 */
export async function listen(): Promise<Listener> {
  const parentPid = process.ppid;
  return { ...(await listenWaiting()), parentPid };
}

/**
 * Opens the plugin's port and prints it: the first and only line on stdout, which the engine reads to
 * connect. A port that cannot be opened ends the process (status 1, the reason on stderr).
 *
 * @example
 * ```ts
 * const listener = await announce();
 * ```
 */
export async function announce(): Promise<Listener> {
  try {
    const listener = await listen();
    process.stdout.write(`${listener.port}\n`);
    return listener;
  } catch (err) {
    process.stderr.write(`pulumi-resource-dns-account: cannot listen on 127.0.0.1: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
