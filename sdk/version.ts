/** Package version, sent in the User-Agent header. Kept in step with package.json by a test. */
export const VERSION = "0.2.0";

/** User-Agent of every request the SDK sends. */
export const USER_AGENT = `pulumi-dns-account/${VERSION}`;
