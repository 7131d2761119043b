/**
 * The port both faces open before they load their gRPC server: a plain TCP listener on 127.0.0.1 whose
 * connections wait, unread, until the server takes them over through grpc-js's connection injector. The
 * Pulumi plugin prints the port (../plugin/listen, issue 25), the OpenTofu face its handshake line
 * (../tofu/announce, issue 35 §3); the engine or tofu dials as soon as it reads it, and its first call is
 * answered once the server is up, with the bytes it sent kept by the kernel meanwhile.
 *
 * A waiting connection is paused (`pauseOnConnect`): nothing reads it, so its peer's end (a FIN, a reset)
 * is not seen while it waits. It is handed over all the same, and its close is seen once its taker reads
 * it: a client that died while the face loaded is noticed then, through {@link Connections.onDisconnect}.
 *
 * This module loads only `node:net`: both faces' bins hold it, ahead of their bundle.
 */
import net from "node:net";

/**
 * The port's connections, handed in order to whoever {@link Connections.take}s them.
 *
 * @example
 * ```ts
 * connections.take((socket) => injector.injectConnection(socket));
 * ```
 */
export interface Connections {
  /** The port, on 127.0.0.1. */
  readonly port: number;
  /**
   * Hands every connection, those waiting first, to `accept`, which must start reading it (a connection
   * arrives paused: its bytes stay in the kernel until then).
   */
  take(accept: (socket: net.Socket) => void): void;
  /**
   * Calls `fn` whenever a connection to the port closes, taken or not. A waiting connection is not read,
   * so the close of one whose peer went away while it waited is seen once it is taken and read.
   */
  onDisconnect(fn: () => void): void;
  /** Stops listening (the connections taken are their taker's to end). */
  close(): void;
}

/**
 * {@link Connections} as {@link listenWaiting} opens them: `close()` also ends the connections nobody
 * took, and resolves once the port is closed.
 *
 * @example
 * ```ts
 * const listener: WaitingListener = await listenWaiting();
 * await listener.close();
 * ```
 */
export interface WaitingListener extends Connections {
  /** Stops listening and ends the connections nobody took; resolves once the port is closed. */
  close(): Promise<void>;
}

/** A waiting connection's errors (a peer that gave up) end it quietly; whoever takes it handles its own. */
function ignore(): void {}

/**
 * Listens on 127.0.0.1 on a port the system picks, and resolves once it is listening; rejects with the
 * listener's error (e.g. no loopback address) when it cannot.
 *
 * @example
 * ```ts
 * const listener = await listenWaiting();
 * process.stdout.write(`${listener.port}\n`);
 * listener.take((socket) => {
 *   injector.injectConnection(socket);
 *   socket.resume();
 * });
 * ```
 */
export function listenWaiting(): Promise<WaitingListener> {
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
