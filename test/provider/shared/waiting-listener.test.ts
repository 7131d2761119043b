import assert from "node:assert/strict";
import diagnostics from "node:diagnostics_channel";
import { once } from "node:events";
import net from "node:net";
import { listen } from "../../../provider/plugin/listen";
import { listenWaiting, type WaitingListener } from "../../../provider/shared/waiting-listener";

/**
 * The listener both faces open before their gRPC server loads (the Pulumi plugin's port, issue 25; the
 * OpenTofu face's handshake line, issue 35 §3): connections wait, paused, until taken. The faces' starts
 * over it, as processes: test/provider/loading.test.ts (the plugin) and test/provider/tofu/start.test.ts.
 *
 * Node's `net.server.socket` diagnostics channel tells these tests, by an event, that the listener has
 * accepted a connection (and so queued it, when nobody takes them yet), and gives them its server side.
 */
describe("the waiting listener both faces start on (provider/shared/waiting-listener)", () => {
  const accepted = new Map<number, net.Socket[]>();
  const wanted = new Map<number, (() => void)[]>();
  const onSocket = (message: unknown): void => {
    const socket = (message as { socket: net.Socket }).socket;
    const port = socket.localPort!;
    accepted.set(port, [...(accepted.get(port) ?? []), socket]);
    for (const wake of wanted.get(port)?.splice(0) ?? []) wake();
  };
  const open: (net.Socket | WaitingListener)[] = [];
  before(() => diagnostics.subscribe("net.server.socket", onSocket));
  after(() => diagnostics.unsubscribe("net.server.socket", onSocket));
  afterEach(async () => {
    // The connections first, both sides: a listener's close() resolves once its connections are ended.
    for (const sockets of accepted.values()) for (const socket of sockets) socket.destroy();
    accepted.clear();
    for (const it of open) if (it instanceof net.Socket) it.destroy();
    for (const it of open.splice(0)) if (!(it instanceof net.Socket)) await it.close();
  });

  /** The listener's `n`th accepted connection, server side (1 = the first), once it is accepted. */
  async function serverSide(port: number, n: number): Promise<net.Socket> {
    while ((accepted.get(port)?.length ?? 0) < n) {
      await new Promise<void>((wake) => wanted.set(port, [...(wanted.get(port) ?? []), wake]));
    }
    return accepted.get(port)![n - 1]!;
  }

  async function opened(): Promise<WaitingListener> {
    const listener = await listenWaiting();
    open.push(listener);
    return listener;
  }

  async function dial(port: number): Promise<net.Socket> {
    const client = net.connect(port, "127.0.0.1");
    open.push(client);
    await once(client, "connect");
    return client;
  }

  it("listens on 127.0.0.1 on a port the system picks; a connection arrives paused, its bytes kept by the kernel until its taker resumes it", async () => {
    const listener = await opened();
    assert.ok(listener.port > 0);
    const client = await dial(listener.port);
    await new Promise<void>((resolve, reject) => client.write("ping", (err) => (err ? reject(err) : resolve())));
    await serverSide(listener.port, 1);
    const taken: net.Socket[] = [];
    listener.take((socket) => taken.push(socket));
    assert.equal(taken.length, 1, "the waiting connection is handed inside take()");
    const socket = taken[0]!;
    assert.equal(socket.localAddress, "127.0.0.1");
    assert.equal(socket.remotePort, client.localPort);
    assert.equal(socket.readableFlowing, false, "paused: nothing reads it before its taker");
    assert.equal(socket.bytesRead, 0);
    socket.resume();
    const [data] = (await once(socket, "data")) as [Buffer];
    assert.equal(data.toString(), "ping");
  });

  it("take(): the waiting connections first, in the order they came, inside the call; later ones straight to the taker", async () => {
    const listener = await opened();
    const first = await dial(listener.port);
    await serverSide(listener.port, 1);
    const second = await dial(listener.port);
    await serverSide(listener.port, 2);
    const handed: [number, boolean][] = [];
    let inside = true;
    let later: (() => void) | undefined;
    listener.take((socket) => {
      handed.push([socket.remotePort!, inside]);
      later?.();
    });
    inside = false;
    assert.deepEqual(handed, [
      [first.localPort, true],
      [second.localPort, true],
    ]);
    const third = new Promise<void>((resolve) => (later = resolve));
    const client = await dial(listener.port);
    await third;
    assert.deepEqual(handed[2], [client.localPort, false]);
    assert.equal(handed.length, 3);
  });

  it("a peer gone while its connection waited (a FIN, a reset) is not seen then: the connection is handed all the same, and its close reaches every onDisconnect once it is read", async () => {
    const listener = await opened();
    const calls = [0, 0];
    listener.onDisconnect(() => calls[0]!++);
    const ended = await dial(listener.port);
    const reset = await dial(listener.port);
    const waiting = [await serverSide(listener.port, 1), await serverSide(listener.port, 2)];
    ended.end();
    reset.resetAndDestroy();
    // The FIN sent ("finish"; the client closes only once the server ends its side too), the reset done.
    await Promise.all([once(ended, "finish"), once(reset, "close")]);
    listener.onDisconnect(() => calls[1]!++);
    assert.ok(
      waiting.every((socket) => !socket.destroyed),
      "a paused connection does not learn that its peer left",
    );
    assert.deepEqual(calls, [0, 0], "no close is told while the connections wait");
    const taken: net.Socket[] = [];
    listener.take((socket) => {
      socket.on("error", () => undefined); // the reset one's ECONNRESET: its taker's to handle
      taken.push(socket);
    });
    assert.deepEqual(taken, waiting, "both handed, though their peers are gone");
    // (not events.once, which rejects at the reset one's "error")
    const closed = taken.map((socket) => new Promise((resolve) => socket.once("close", resolve)));
    for (const socket of taken) socket.resume();
    await Promise.all(closed);
    assert.deepEqual(calls, [2, 2], "each close, once read, is told to every onDisconnect");
  });

  it("close(): stops listening, ends the connections nobody took, leaves the taken ones to their taker, and resolves once the port is closed", async () => {
    // Nobody took: the waiting connection is ended, the port refuses new ones, close() resolves.
    const idle = await opened();
    const client = await dial(idle.port);
    const waiting = await serverSide(idle.port, 1);
    const clientClosed = once(client, "close");
    await idle.close();
    assert.equal(waiting.destroyed, true, "the connection nobody took is ended");
    await clientClosed;
    const refused = net.connect(idle.port, "127.0.0.1");
    const [err] = (await once(refused, "error")) as [NodeJS.ErrnoException];
    assert.equal(err.code, "ECONNREFUSED");

    // Taken: the connection stays its taker's, still open and read, and close() resolves once it ends.
    const busy = await opened();
    const taken: net.Socket[] = [];
    busy.take((socket) => taken.push(socket));
    const peer = await dial(busy.port);
    const socket = await serverSide(busy.port, 1);
    let done = false;
    const closing = busy.close().then(() => (done = true));
    const again = net.connect(busy.port, "127.0.0.1");
    const [err2] = (await once(again, "error")) as [NodeJS.ErrnoException];
    assert.equal(err2.code, "ECONNREFUSED", "no new connection once close() is called");
    assert.deepEqual(taken, [socket]);
    peer.write("still here");
    socket.resume();
    const [data] = (await once(socket, "data")) as [Buffer];
    assert.equal(data.toString(), "still here", "the taken connection is left open");
    assert.equal(done, false, "the port is not closed while a taken connection is open");
    socket.end();
    await closing;
    assert.equal(done, true);
  });

  it("a port that cannot be opened: the listener's error rejects the promise (each face then exits 1 saying why)", async () => {
    const real = net.Server.prototype.listen;
    const refused = Object.assign(new Error("listen EADDRNOTAVAIL: address not available 127.0.0.1"), { code: "EADDRNOTAVAIL" });
    net.Server.prototype.listen = function (this: net.Server) {
      process.nextTick(() => this.emit("error", refused));
      return this;
    } as typeof real;
    try {
      await assert.rejects(listenWaiting(), (err) => err === refused);
    } finally {
      net.Server.prototype.listen = real;
    }
  });

  it("the Pulumi plugin's listen(): this listener, with the process's parent read when the port opened", async () => {
    const listener = await listen();
    open.push(listener);
    assert.equal(listener.parentPid, process.ppid);
    const client = await dial(listener.port);
    const handed = new Promise<net.Socket>((resolve) => listener.take(resolve));
    const socket = await handed;
    assert.equal(socket.remotePort, client.localPort);
    assert.equal(socket.readableFlowing, false, "handed paused, as the shared listener hands it");
  });
});
