/**
 * The handshake line first (issue 35 §3): what the provider does before it loads its gRPC server, so
 * that tofu, which waits for that line before anything else, waits no longer than a bare Node process
 * that opens a TLS listener. The npm bin (./bin) and the single executable's entry (./sea) run it, then
 * load the face (./main) and hand it what this opened.
 *
 * 1. Without `TF_PLUGIN_MAGIC_COOKIE` it says on stderr that it is a plugin, and exits 1 (./handshake);
 *    a client that offers no protocol 6 is refused the same way.
 * 2. `console.*` goes to stderr as hclog lines (./log); stdout carries the handshake line and nothing else.
 * 3. SIGINT is ignored from here on, as go-plugin's servers do (tofu forwards the user's Ctrl-C as
 *    StopProvider).
 * 4. AutoMTLS unless `TF_DISABLE_PLUGIN_TLS` is set or tofu sent no `PLUGIN_CLIENT_CERT`: tofu's
 *    certificate checked, our own self-signed certificate minted (./tls, node:crypto alone).
 * 5. A plain TCP listener on 127.0.0.1 whose connections wait, unread, until the gRPC server takes them
 *    (../shared/waiting-listener, the Pulumi plugin's too; ./server, through grpc-js's connection
 *    injector, which does the TLS): tofu dials as soon as it reads the line, and its first call is
 *    answered once the face is loaded, with the bytes it sent kept by the kernel meanwhile. tofu's death
 *    while the face loads is seen once the server takes and reads its connection (./main).
 * 6. The handshake line `1|6|tcp|127.0.0.1:<port>|grpc|<cert>`.
 *
 * It loads `node:net`, `node:crypto` and the small modules named above, nothing of gRPC.
 */
import { type Connections, listenWaiting } from "../shared/waiting-listener";
import { checkHandshake, handshakeLine, HandshakeError } from "./handshake";
import { keepStdoutClean, log } from "./log";
import { clientCertificate, mintServerCertificate, type ServerCertificate, TlsSetupError } from "./tls";

export type { Connections } from "../shared/waiting-listener";

/**
 * What {@link announce} opened and printed: the connections, tofu's certificate and our own when AutoMTLS
 * is on, and the process's parent when it started (tofu).
 *
 * @example
 * ```ts
 * const { connections, mtls, parent }: Announced = await announce();
 * ```
 */
export interface Announced {
  connections: Connections;
  /** Present when AutoMTLS is on: tofu's certificate (PEM) and ours, whose DER the line carried. */
  mtls?: { clientCert: string; own: ServerCertificate };
  /** The parent when the process started, read before the line was printed: tofu was there then. */
  parent: number;
}

/**
 * Whether AutoMTLS is on: `PLUGIN_CLIENT_CERT` set and `TF_DISABLE_PLUGIN_TLS` not.
 *
 * @example
 * ```ts
 * tlsWanted({ PLUGIN_CLIENT_CERT: pem }); // true
 * ```
 */
export function tlsWanted(env: NodeJS.ProcessEnv): boolean {
  return !env["TF_DISABLE_PLUGIN_TLS"] && !!env["PLUGIN_CLIENT_CERT"];
}

function fail(message: string): never {
  process.stderr.write(message.endsWith("\n") ? message : `${message}\n`);
  process.exit(1);
}

/**
 * Ends a provider whose face could not be loaded after its handshake line (a bundle missing or broken): says
 * why on stderr and exits 1, whatever `--unhandled-rejections` the environment's `NODE_OPTIONS` sets (with
 * `warn`, a rejection left unhandled would keep the process, and its port, open while tofu waits).
 *
 * @example
 * ```ts
 * announce().then((announced) => loadFace().start(announced)).catch(cannotStart);
 * ```
 */
export function cannotStart(err: unknown): never {
  fail(`terraform-provider-dnsaccount: the provider could not load: ${err instanceof Error ? err.message : String(err)}`);
}

/**
 * Checks the handshake, keeps stdout for the line, ignores SIGINT, mints the certificate, listens, and
 * prints the handshake line; resolves what the face needs to serve. Exits 1, saying why on stderr, when
 * the process was not started as a plugin or tofu's certificate cannot be read.
 *
 * @example
 * ```ts
 * const announced = await announce();
 * (loadBundle(file) as typeof import("./main")).start(announced);
 * ```
 */
export async function announce(env: NodeJS.ProcessEnv = process.env): Promise<Announced> {
  try {
    checkHandshake(env);
  } catch (err) {
    if (err instanceof HandshakeError) fail(err.message);
    throw err;
  }
  const parent = process.ppid;
  const write = keepStdoutClean();
  process.on("SIGINT", () => log("debug", "SIGINT ignored: tofu stops the provider through StopProvider and Shutdown"));
  let mtls: Announced["mtls"];
  if (tlsWanted(env)) {
    try {
      mtls = { clientCert: clientCertificate(env["PLUGIN_CLIENT_CERT"]), own: mintServerCertificate() };
    } catch (err) {
      if (err instanceof TlsSetupError) fail(`terraform-provider-dnsaccount: ${err.message}`);
      throw err;
    }
  } else {
    log("warn", "serving without TLS (TF_DISABLE_PLUGIN_TLS is set, or no PLUGIN_CLIENT_CERT)");
  }
  let connections: Connections;
  try {
    connections = await listenWaiting();
  } catch (err) {
    fail(`terraform-provider-dnsaccount: ${err instanceof Error ? err.message : String(err)}`);
  }
  write(handshakeLine(connections.port, mtls?.own.derBase64));
  return { connections, ...(mtls ? { mtls } : {}), parent };
}
