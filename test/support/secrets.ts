import assert from "node:assert/strict";

/**
 * The secrets a device's with-auth addresses embed (its `dns_addresses` as the service returns them):
 * the DoH password as given, percent-encoded and lower-cased, and the whole with-auth URL, for
 * `_assertNoSecrets` of ./helpers.
 */
export function _dohSecrets(addresses: Record<string, unknown>): string[] {
  const url = new URL(String(addresses.dns_over_https_with_auth_url));
  const password = decodeURIComponent(url.password);
  assert.ok(password.length >= 8, "the device has a DoH password");
  return [...new Set([password, url.password, password.toLowerCase(), url.password.toLowerCase(), String(addresses.dns_over_https_with_auth_url)])];
}
