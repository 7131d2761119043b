/**
 * The plugin's port, opened before anything else of the plugin is loaded (issue 25): a plain TCP listener
 * on 127.0.0.1 whose connections wait, unread, until the gRPC server takes them over through grpc-js's
 * connection injector (./server). The engine reads the port as soon as it is printed and dials while the
 * plugin loads its server; its first call is answered once the server is up, no later than when the
 * server bound the port itself (the connection waited in the kernel's backlog then, as it waits here).
 *
 * This module loads only `node:net`: the npm bin (./bin) runs it before reading the plugin's bundle.
 */
import net from "node:net";

/** An open port whose connections are handed, in order, to whoever {@link Listener.take}s them. */
export interface Listener {
  /** The port, on 127.0.0.1. */
  readonly port: number;
  /**
   * The process's parent when the port was opened, before it was printed: the engine (or whatever started
   * the plugin) was there then. Read this early because the plugin only learns later that it is orphaned
   * (./engine-watch), when the parent it had may no longer be known.
   */
  readonly parentPid: number;
  /**
   * Hands every connection, those waiting first, to `accept`, which must start reading it (a connection
   * arrives paused: its bytes stay in the kernel until then).
   */
  take(accept: (socket: net.Socket) => void): void;
  /**
   * Calls `fn` whenever a connection to the port closes, taken or not: the engine's closes when the
   * engine goes away, killed or not (./engine-watch then checks whether it is gone).
   */
  onDisconnect(fn: () => void): void;
  /** Stops listening and ends the connections nobody took. */
  close(): Promise<void>;
}

/** A waiting connection's errors (a peer that gave up) end it quietly; whoever takes it handles its own. */
function ignore(): void {}

/**
 * Listens on 127.0.0.1 on a port the system picks, and resolves once it is listening.
 *
 * @example
 * ```ts
 * const listener = await listen();
 * process.stdout.write(`${listener.port}\n`);
 * listener.take((socket) => injector.injectConnection(socket));
 * ```
 */
export function listen(): Promise<Listener> {
  const parentPid = process.ppid;
  const waiting: net.Socket[] = [];
  const disconnected: (() => void)[] = [];
  let accept: ((socket: net.Socket) => void) | undefined;
  const server = net.createServer({ pauseOnConnect: true }, (socket) => {
    socket.once("close", () => {
      for (const fn of disconnected) fn();
    });
    if (accept) return accept(socket);
    socket.on("error", ignore);
    waiting.push(socket);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve({
        port: (server.address() as net.AddressInfo).port,
        parentPid,
        take(fn) {
          accept = fn;
          for (const socket of waiting.splice(0)) {
            socket.off("error", ignore);
            fn(socket);
          }
        },
        onDisconnect(fn) {
          disconnected.push(fn);
        },
        close: () =>
          new Promise<void>((done) => {
            for (const socket of waiting.splice(0)) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
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
