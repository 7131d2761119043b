/**
 * go-plugin's handshake, as a provider of Terraform's plugin protocol 6 answers it (issue 34): the magic
 * cookie that tells a plugin started by tofu (or terraform) from one started by hand, the protocol version
 * chosen from what the client offers, and the line printed on stdout that tells the client where and how
 * to connect.
 */

/**
 * The environment variable go-plugin's client sets the magic cookie in.
 *
 * @example
 * ```ts
 * process.env[MAGIC_COOKIE_KEY] === MAGIC_COOKIE_VALUE; // started by tofu
 * ```
 */
export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
/**
 * The cookie's value for Terraform and OpenTofu providers.
 *
 * @example
 * ```ts
 * spawn(bin, { env: { TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE } });
 * ```
 */
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
/**
 * go-plugin's own handshake version: the first field of the line.
 *
 * @example
 * ```ts
 * line.startsWith(`${CORE_PROTOCOL_VERSION}|`);
 * ```
 */
export const CORE_PROTOCOL_VERSION = 1;
/**
 * The one application protocol this face speaks (tfplugin6).
 *
 * @example
 * ```ts
 * line.split("|")[1] === String(PROTOCOL_VERSION);
 * ```
 */
export const PROTOCOL_VERSION = 6;

/**
 * What the executable says, on stderr, when it is started without the cookie.
 *
 * @example
 * ```ts
 * process.stderr.write(NOT_A_PROGRAM);
 * ```
 */
export const NOT_A_PROGRAM =
  "terraform-provider-dnsaccount is a plugin of OpenTofu and Terraform, not a program to run by hand.\n" +
  "Declare it in a configuration's required_providers (source registry.opentofu.org/pulumi-dns-account/dnsaccount)\n" +
  "and run `tofu init`; tofu starts it when it needs it.\n";

/**
 * A handshake that cannot be made: `code` is stable (`not_a_plugin_start`, `protocol_unsupported`), the
 * message names the environment variable.
 *
 * @example
 * ```ts
 * try { checkHandshake(process.env); } catch (e) { if (e instanceof HandshakeError) process.exit(1); }
 * ```
 */
export class HandshakeError extends Error {
  readonly code: "not_a_plugin_start" | "protocol_unsupported";
  constructor(code: HandshakeError["code"], message: string) {
    super(message);
    this.name = "HandshakeError";
    this.code = code;
  }
}

/**
 * Checks the cookie, and chooses protocol 6 from `PLUGIN_PROTOCOL_VERSIONS` (a comma-separated list; when
 * absent, go-plugin's client is an old one that expects the server's only version). Throws a
 * {@link HandshakeError} when the cookie is missing or wrong, or when the client offers versions and 6 is
 * not among them.
 *
 * @example
 * ```ts
 * checkHandshake(process.env); // 6
 * ```
 */
export function checkHandshake(env: NodeJS.ProcessEnv): number {
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) throw new HandshakeError("not_a_plugin_start", NOT_A_PROGRAM);
  const offered = env["PLUGIN_PROTOCOL_VERSIONS"];
  if (offered === undefined || offered.trim() === "") return PROTOCOL_VERSION;
  const versions = offered.split(",").map((v) => Number(v.trim()));
  if (versions.includes(PROTOCOL_VERSION)) return PROTOCOL_VERSION;
  throw new HandshakeError(
    "protocol_unsupported",
    `terraform-provider-dnsaccount speaks plugin protocol ${PROTOCOL_VERSION} only; the client offered PLUGIN_PROTOCOL_VERSIONS=${offered} ` +
      "(OpenTofu ≥ 1.0 and Terraform ≥ 1.0 offer 6)\n",
  );
}

/**
 * The handshake line (without its newline): `core|app|tcp|127.0.0.1:<port>|grpc|<cert>`, the cert being
 * the server's certificate as base64 DER without padding, or empty when TLS is off.
 *
 * @example
 * ```ts
 * handshakeLine(40123, "MIIB..."); // "1|6|tcp|127.0.0.1:40123|grpc|MIIB..."
 * ```
 */
export function handshakeLine(port: number, certBase64?: string): string {
  return `${CORE_PROTOCOL_VERSION}|${PROTOCOL_VERSION}|tcp|127.0.0.1:${port}|grpc|${certBase64 ?? ""}`;
}
