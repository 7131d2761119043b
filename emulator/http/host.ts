/**
 * Which `Host` values the emulator answers (DNS rebinding). A web page at `http://rebind.example:8787`
 * whose name the attacker later points at 127.0.0.1 is same-origin with the emulator in the browser,
 * and the emulator's credentials are published: so a request is served only when its `Host` names the
 * address the emulator listens on. A name the attacker can re-point never does, unless the user lists
 * it (`allowedHosts`, `--allow-host`).
 *
 * Written here rather than taken from a middleware package: those (Vite's `host-validation-middleware`)
 * answer every IP address and ignore the port, and the emulator's rule is narrower: only its own
 * address and port.
 */
import type { IncomingMessage } from "node:http";
import { isIPv4, isIPv6 } from "node:net";
import { networkInterfaces } from "node:os";

/** A `Host` value split into a canonical name (lowercase; IPv6 in brackets, compressed) and its port. */
export interface HostName {
  name: string;
  /** Undefined when the value has none (then the default port, 80, is meant). */
  port: number | undefined;
}

/** `[v6]`, or a name or IPv4 address, then an optional `:port`: nothing else (no user info, no path). */
const HOST = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+))(?::(\d{1,5}))?$/;
const LABELS = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/;

/** `[::1]` for `::1` or `0:0::1`: the WHATWG URL parser's canonical form. */
function bracketed(v6: string): string {
  return new URL(`http://[${v6}]/`).hostname;
}

/**
 * Parses a `Host` header value (or an `allowedHosts` entry): undefined when it is not one.
 *
 * @example
 * ```ts
 * parseHost("LocalHost:8787"); // { name: "localhost", port: 8787 }
 * parseHost("[0:0::1]:80");    // { name: "[::1]", port: 80 }
 * parseHost("a@127.0.0.1");    // undefined
 * ```
 */
export function parseHost(value: string): HostName | undefined {
  const m = HOST.exec(value);
  if (!m) return undefined;
  const port = m[3] === undefined ? undefined : Number(m[3]);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  if (m[1] !== undefined) return isIPv6(m[1]) ? { name: bracketed(m[1]), port } : undefined;
  const name = m[2]!.toLowerCase();
  if (!LABELS.test(name)) return undefined;
  return { name, port };
}

/**
 * Parses an `allowedHosts` entry (`--allow-host`): a `Host` value, or a bare IPv6 address.
 *
 * @example
 * ```ts
 * parseAllowedHost("emulator");       // { name: "emulator", port: undefined }
 * parseAllowedHost("localhost:9000"); // { name: "localhost", port: 9000 }
 * parseAllowedHost("::1");            // { name: "[::1]", port: undefined }
 * ```
 */
export function parseAllowedHost(entry: string): HostName | undefined {
  return parseHost(isIPv6(entry) ? `[${entry}]` : entry);
}

/** An address as `Host` names it: IPv6 in brackets (canonical), IPv4 and names lowercase. */
function asHostName(address: string): string {
  return isIPv6(address) ? bracketed(address) : address.toLowerCase();
}

/**
 * Whether a listening address (`host` option, `--host`) stays on this machine: `localhost`, an IPv4
 * address of 127.0.0.0/8, `::1`, or an IPv4-mapped 127.x address. Any other name or address is reached
 * from elsewhere (or may be), and needs the explicit opt-in.
 *
 * @example
 * ```ts
 * isLoopbackHost("127.0.0.1"); // true
 * isLoopbackHost("0.0.0.0");   // false
 * ```
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase();
  if (h === "localhost") return true;
  if (isIPv4(h)) return h.startsWith("127.");
  if (!isIPv6(h)) return false;
  const v6 = bracketed(h);
  // ::ffff:127.0.0.0/104 is written ::ffff:7fXX:XXXX once canonical.
  return v6 === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(v6);
}

/** What {@link HostCheck.check} found: a Host to answer, none (400), or one of another site (421). */
export type HostVerdict = "ok" | "missing" | "misdirected";

/**
 * The `Host` rule of one running emulator: 127.0.0.1, localhost and [::1] with its port; the address it
 * is bound to and the `host` it was given (when that is another); on a wildcard address (`0.0.0.0`,
 * `::`), the machine's own interface addresses; and each `allowedHosts` entry (with its own port, or
 * the emulator's).
 *
 * @example
 * ```ts
 * const rule = new HostCheck({ host: "127.0.0.1", address: "127.0.0.1", port: 8787 });
 * rule.allows("localhost:8787");            // true
 * rule.allows("rebind.attacker.example:8787"); // false
 * ```
 */
export class HostCheck {
  private readonly allowed = new Set<string>();
  private readonly wildcard: boolean;

  constructor(private readonly bound: { host: string; address: string; port: number; allowedHosts?: readonly HostName[] }) {
    for (const name of ["127.0.0.1", "localhost", "[::1]", asHostName(bound.address), asHostName(bound.host)]) this.allowed.add(`${name}:${bound.port}`);
    for (const extra of bound.allowedHosts ?? []) this.allowed.add(`${extra.name}:${extra.port ?? bound.port}`);
    this.wildcard = bound.address === "0.0.0.0" || bound.address === "::";
  }

  /**
   * Whether a `Host` value names this emulator. A value without a port means its scheme's default: 80,
   * or 443 when a TLS front (a reverse proxy, a test's stand-in for the service) passes it on.
   */
  allows(value: string): boolean {
    const host = parseHost(value);
    if (!host) return false;
    const ports = host.port === undefined ? [80, 443] : [host.port];
    if (ports.some((port) => this.allowed.has(`${host.name}:${port}`))) return true;
    // Listening on every interface: each of the machine's addresses is the listening address. Read at
    // the time of the request, since addresses come and go (DHCP, VPNs) while the emulator runs.
    if (!this.wildcard || !ports.includes(this.bound.port)) return false;
    return Object.values(networkInterfaces()).some((list) => list?.some((i) => asHostName(i.address) === host.name));
  }

  /**
   * Checks a request: its one `Host` header and, for a request target in absolute form
   * (`GET http://host:port/path`, which RFC 9112 §3.2.2 says wins over `Host`), that authority too.
   */
  check(req: IncomingMessage): HostVerdict {
    const values: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === "host") values.push(req.rawHeaders[i + 1]!);
    // RFC 9112 §3.2: no Host, or more than one, is a 400 (HTTP/1.1 requires exactly one).
    if (values.length !== 1) return "missing";
    if (!this.allows(values[0]!.trim())) return "misdirected";
    const target = req.url ?? "/";
    if (target.startsWith("/") || target === "*") return "ok";
    try {
      const url = new URL(target);
      return url.username === "" && url.password === "" && this.allows(url.host) ? "ok" : "misdirected";
    } catch {
      return "misdirected";
    }
  }
}
