/**
 * go-plugin's AutoMTLS, as the provider's side of it (issue 34): tofu generates a client certificate and
 * passes it, PEM, in `PLUGIN_CLIENT_CERT`; the provider mints its own self-signed certificate, serves TLS
 * (1.2 or later, HTTP/2) that requires and verifies tofu's certificate, and prints its own in the
 * handshake line as base64 DER without padding, which tofu then trusts alone.
 *
 * The X.509 work is @peculiar/x509's (on Node's WebCrypto): an ECDSA P-256 key and a self-signed
 * certificate for DNS:localhost (the name go-plugin's client verifies), valid from a minute ago for 30
 * days, a CA for itself as go-plugin's own certificates are (Go verifies it as the chain's root). The
 * key never leaves the process.
 */
import { webcrypto, X509Certificate } from "node:crypto";
import tls from "node:tls";

/**
 * The server's certificate and key, PEM, and the certificate as the handshake line carries it.
 *
 * @example
 * ```ts
 * const { certPem, keyPem, derBase64 }: ServerCertificate = await mintServerCertificate();
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

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString("base64");
  return `-----BEGIN ${label}-----\n${b64.replace(/.{1,64}/g, "$&\n")}-----END ${label}-----\n`;
}

/**
 * Mints the server's self-signed certificate (ECDSA P-256 with SHA-256 unless `curve` says otherwise,
 * DNS:localhost). The tests mint tofu's side with P-521 and SHA-512, as go-plugin's client does.
 *
 * @example
 * ```ts
 * const { certPem, keyPem, derBase64 } = await mintServerCertificate();
 * ```
 */
export async function mintServerCertificate(now: Date = new Date(), curve: "P-256" | "P-384" | "P-521" = "P-256"): Promise<ServerCertificate> {
  require("reflect-metadata");
  const x509 = require("@peculiar/x509") as typeof import("@peculiar/x509");
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const hash = { "P-256": "SHA-256", "P-384": "SHA-384", "P-521": "SHA-512" }[curve];
  const algorithm = { name: "ECDSA", namedCurve: curve, hash };
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as webcrypto.CryptoKeyPair;
  const serial = Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)));
  serial[0] = (serial[0] ?? 0) & 0x7f; // a positive serial number
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial.toString("hex"),
    name: "CN=localhost, O=pulumi-dns-account",
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: new Date(now.getTime() + 30 * 24 * 3600_000),
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: "dns", value: "localhost" }]),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey("pkcs8", keys.privateKey);
  return {
    certPem: cert.toString("pem") + "\n",
    keyPem: pem("PRIVATE KEY", pkcs8),
    derBase64: Buffer.from(cert.rawData).toString("base64").replace(/=+$/, ""),
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
  const order = ["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"];
  if (order.indexOf(tls.DEFAULT_MIN_VERSION) < order.indexOf("TLSv1.2")) tls.DEFAULT_MIN_VERSION = "TLSv1.2";
}
