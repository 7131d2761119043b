import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";

/** A loopback forward proxy that resolves one host name to the emulator: docker-compose's network in a test. */
export interface NamedHostProxy {
  /** `http://127.0.0.1:PORT`, for HTTP_PROXY. */
  url: string;
  /** Every target the proxy was asked for (`host:port`). */
  hosts: string[];
  close(): Promise<void>;
}

/** Starts a proxy that forwards requests (plain and CONNECT) for `name` (e.g. `emulator:8787`) to `target`. */
export async function _namedHostProxy(target: string, name: string): Promise<NamedHostProxy> {
  const hosts: string[] = [];
  const to = new URL(target);
  const proxy = http.createServer((req, res) => {
    const url = new URL(req.url!);
    hosts.push(url.host);
    if (url.host !== name) return void res.writeHead(502).end();
    const upstream = http.request({ host: to.hostname, port: to.port, path: url.pathname + url.search, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode!, r.headers);
      r.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  // undici tunnels through a proxy with CONNECT.
  proxy.on("connect", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    hosts.push(req.url!);
    if (req.url !== name) return void socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
    const upstream = net.connect(Number(to.port), to.hostname, () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`,
    hosts,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}
