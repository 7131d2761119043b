/**
 * go-plugin's AutoMTLS, as the provider's side of it (issue 34): tofu generates a client certificate and
 * passes it, PEM, in `PLUGIN_CLIENT_CERT`; the provider mints its own self-signed certificate, serves TLS
 * (1.2 or later, HTTP/2) that requires and verifies tofu's certificate, and prints its own in the
 * handshake line as base64 DER without padding, which tofu then trusts alone.
 *
 * The certificate is made here, with node:crypto alone: an ECDSA P-256 key (`generateKeyPairSync`, under a
 * millisecond) and a self-signed X.509 v3 certificate for DNS:localhost (the name go-plugin's client
 * verifies), valid from a minute ago for 30 days, a CA for itself as go-plugin's own certificates are (Go
 * verifies it as the chain's root), its DER written by {@link der} from a fixed template and signed with
 * `crypto.sign`. An X.509 library costs more to load than the whole start-up may take (issue 35 §3), and
 * the provider needs one certificate of one shape. The key never leaves the process.
 *
 * It loads `node:crypto` only (`node:tls` when {@link requireTls12} runs): the start-up mints the
 * certificate before the face's bundle is loaded (./announce).
 */
import { generateKeyPairSync, randomBytes, sign, X509Certificate } from "node:crypto";

/**
 * The server's certificate and key, PEM, and the certificate as the handshake line carries it.
 *
 * @example
 * ```ts
 * const { certPem, keyPem, derBase64 }: ServerCertificate = mintServerCertificate();
 * ```
 */
export interface ServerCertificate {
  certPem: string;
  keyPem: string;
  /** The DER certificate in base64 without `=` padding (the handshake line's sixth field). */
  derBase64: string;
}

/**
 * AutoMTLS that cannot start: `code` is stable (`plugin_client_cert_invalid`), the message names
 * `PLUGIN_CLIENT_CERT`.
 *
 * @example
 * ```ts
 * try { clientCertificate(undefined); } catch (e) { (e as TlsSetupError).code; }
 * ```
 */
export class TlsSetupError extends Error {
  readonly code = "plugin_client_cert_invalid";
  constructor(message: string) {
    super(message);
    this.name = "TlsSetupError";
  }
}

/** The curves a certificate may be minted with, and the digest and signature algorithm (its OID) of each. */
const CURVES = {
  "P-256": { hash: "sha256", signature: "1.2.840.10045.4.3.2" },
  "P-384": { hash: "sha384", signature: "1.2.840.10045.4.3.3" },
  "P-521": { hash: "sha512", signature: "1.2.840.10045.4.3.4" },
} as const;

/**
 * DER, the few types an X.509 certificate of {@link mintServerCertificate}'s shape needs: each function
 * returns one encoded value (tag, length, contents).
 *
 * @example
 * ```ts
 * der.sequence(der.oid("2.5.29.19"), der.octets(der.sequence(der.boolean(true)))); // an extension
 * ```
 */
export const der = {
  /** A value of `tag` holding `contents` (the length in DER's shortest form). */
  tlv(tag: number, ...contents: Buffer[]): Buffer {
    const body = Buffer.concat(contents);
    const n = body.length;
    const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : n < 0x10000 ? [0x82, n >> 8, n & 0xff] : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
    return Buffer.concat([Buffer.from([tag, ...length]), body]);
  },
  sequence: (...items: Buffer[]): Buffer => der.tlv(0x30, ...items),
  set: (...items: Buffer[]): Buffer => der.tlv(0x31, ...items),
  /** A context-specific constructed tag, `[n] EXPLICIT`. */
  explicit: (n: number, inner: Buffer): Buffer => der.tlv(0xa0 | n, inner),
  boolean: (value: boolean): Buffer => der.tlv(0x01, Buffer.from([value ? 0xff : 0x00])),
  /** A non-negative INTEGER from its big-endian bytes (leading zeros dropped, a zero added when the top bit is set). */
  unsigned(bytes: Buffer): Buffer {
    let at = 0;
    while (at < bytes.length - 1 && bytes[at] === 0) at++;
    const trimmed = bytes.subarray(at);
    return der.tlv(0x02, (trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
  },
  /** An OBJECT IDENTIFIER from its dotted form. */
  oid(dotted: string): Buffer {
    const [a = 0, b = 0, ...rest] = dotted.split(".").map(Number);
    const bytes = [40 * a + b];
    for (const arc of rest) {
      const groups = [arc & 0x7f];
      for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) groups.unshift((v & 0x7f) | 0x80);
      bytes.push(...groups);
    }
    return der.tlv(0x06, Buffer.from(bytes));
  },
  utf8: (text: string): Buffer => der.tlv(0x0c, Buffer.from(text, "utf8")),
  octets: (contents: Buffer): Buffer => der.tlv(0x04, contents),
  /** A BIT STRING of whole bytes, or of `bytes` with its last `unused` bits not part of it. */
  bits: (bytes: Buffer, unused = 0): Buffer => der.tlv(0x03, Buffer.from([unused]), bytes),
  /** A certificate's time: UTCTime through 2049, GeneralizedTime from 2050 on (RFC 5280, 4.1.2.5), in whole seconds. */
  time(at: Date): Buffer {
    const iso = at.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
    const digits = iso.slice(0, 19).replace(/[-T:]/g, "");
    const year = at.getUTCFullYear();
    return year >= 1950 && year < 2050 ? der.tlv(0x17, Buffer.from(`${digits.slice(2)}Z`)) : der.tlv(0x18, Buffer.from(`${digits}Z`));
  },
};

function pem(label: string, data: Buffer): string {
  return `-----BEGIN ${label}-----\n${data.toString("base64").replace(/.{1,64}/g, "$&\n")}-----END ${label}-----\n`;
}

/** The certificate's name, issuer and subject both: CN=localhost, O=pulumi-dns-account. */
const NAME = der.sequence(der.set(der.sequence(der.oid("2.5.4.3"), der.utf8("localhost"))), der.set(der.sequence(der.oid("2.5.4.10"), der.utf8("pulumi-dns-account"))));

/**
 * The extensions: a CA for itself (basic constraints, critical), for signatures and certificate signing
 * (key usage, critical), server and client authentication (extended key usage), DNS:localhost (subject
 * alternative name).
 */
const EXTENSIONS = der.explicit(
  3,
  der.sequence(
    der.sequence(der.oid("2.5.29.19"), der.boolean(true), der.octets(der.sequence(der.boolean(true)))),
    // digitalSignature (bit 0) and keyCertSign (bit 5): 0b1000_0100, its last two bits unused.
    der.sequence(der.oid("2.5.29.15"), der.boolean(true), der.octets(der.bits(Buffer.from([0x84]), 2))),
    der.sequence(der.oid("2.5.29.37"), der.octets(der.sequence(der.oid("1.3.6.1.5.5.7.3.1"), der.oid("1.3.6.1.5.5.7.3.2")))),
    der.sequence(der.oid("2.5.29.17"), der.octets(der.sequence(der.tlv(0x82, Buffer.from("localhost"))))),
  ),
);

/**
 * Mints the server's self-signed certificate (ECDSA P-256 with SHA-256 unless `curve` says otherwise,
 * DNS:localhost), with node:crypto alone, in about a millisecond. The tests mint tofu's side with P-521
 * and SHA-512, as go-plugin's client does.
 *
 * @example
 * ```ts
 * const { certPem, keyPem, derBase64 } = mintServerCertificate();
 * ```
 */
export function mintServerCertificate(now: Date = new Date(), curve: keyof typeof CURVES = "P-256"): ServerCertificate {
  const { hash, signature } = CURVES[curve];
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: curve });
  const serial = randomBytes(16);
  serial[0] = ((serial[0] ?? 0) & 0x3f) | 0x40; // positive, and 16 bytes long in DER
  const algorithm = der.sequence(der.oid(signature));
  const tbs = der.sequence(
    der.explicit(0, der.tlv(0x02, Buffer.from([2]))), // version 3
    der.unsigned(serial),
    algorithm,
    NAME,
    der.sequence(der.time(new Date(now.getTime() - 60_000)), der.time(new Date(now.getTime() + 30 * 24 * 3600_000))),
    NAME,
    publicKey.export({ type: "spki", format: "der" }),
    EXTENSIONS,
  );
  const cert = der.sequence(tbs, algorithm, der.bits(sign(hash, tbs, privateKey)));
  return {
    certPem: pem("CERTIFICATE", cert),
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
    derBase64: cert.toString("base64").replace(/=+$/, ""),
  };
}

/**
 * tofu's client certificate from `PLUGIN_CLIENT_CERT`, checked to be one PEM certificate Node can read.
 * Throws a {@link TlsSetupError} naming the variable otherwise.
 *
 * @example
 * ```ts
 * const clientCert = clientCertificate(process.env.PLUGIN_CLIENT_CERT);
 * ```
 */
export function clientCertificate(value: string | undefined): string {
  if (!value || !value.includes("-----BEGIN CERTIFICATE-----")) {
    throw new TlsSetupError("PLUGIN_CLIENT_CERT holds no PEM certificate: tofu sets it when AutoMTLS is on (set TF_DISABLE_PLUGIN_TLS to serve without TLS)");
  }
  try {
    new X509Certificate(value);
  } catch (err) {
    throw new TlsSetupError(`PLUGIN_CLIENT_CERT is not a certificate Node can read: ${err instanceof Error ? err.message : String(err)}`);
  }
  return value;
}

/**
 * Makes TLS 1.2 the least version any server of this process accepts, even when `NODE_OPTIONS` lowered
 * Node's default (`--tls-min-v1.0`): grpc-js's server credentials take no minimum of their own.
 *
 * @example
 * ```ts
 * requireTls12();
 * ```
 */
export function requireTls12(): void {
  const tls = require("node:tls") as typeof import("node:tls");
  const order = ["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"];
  if (order.indexOf(tls.DEFAULT_MIN_VERSION) < order.indexOf("TLSv1.2")) tls.DEFAULT_MIN_VERSION = "TLSv1.2";
}
