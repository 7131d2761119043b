import path from "node:path";

/**
 * A host name that resolves to 127.0.0.1 in child processes only (no DNS, no /etc/hosts): docker-compose's
 * `http://emulator:PORT` in a test. Spread `env` into the child's environment.
 */
export function _namedHost(emulatorUrl: string, name = "emulator"): { url: string; env: NodeJS.ProcessEnv } {
  const port = new URL(emulatorUrl).port;
  const preload = path.join(__dirname, "named-hosts-preload.js");
  return {
    url: `http://${name}:${port}`,
    env: { NODE_OPTIONS: `--require ${preload}`, DNS_ACCOUNT_TEST_HOSTS: `${name}=127.0.0.1`, HTTP_PROXY: undefined, http_proxy: undefined, HTTPS_PROXY: undefined, https_proxy: undefined },
  };
}
