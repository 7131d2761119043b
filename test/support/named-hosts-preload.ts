// Preloaded (node --require) into child processes of tests that need a host name other than localhost,
// as docker-compose gives services: DNS_ACCOUNT_TEST_HOSTS="emulator=127.0.0.1" makes dns.lookup answer
// that name without asking DNS. Test-only; the package never loads it.
import dns from "node:dns";

const names = new Map(
  (process.env.DNS_ACCOUNT_TEST_HOSTS ?? "")
    .split(",")
    .filter(Boolean)
    .map((pair) => pair.split("=") as [string, string]),
);
const original = dns.lookup;

function lookup(host: string, options: unknown, callback?: unknown): void {
  const cb = (typeof options === "function" ? options : callback) as (...args: unknown[]) => void;
  const opts = (typeof options === "object" && options !== null ? options : {}) as { all?: boolean };
  const address = names.get(host);
  if (address === undefined) return void (original as (...args: unknown[]) => void).call(dns, host, options, callback);
  if (opts.all) process.nextTick(cb, null, [{ address, family: 4 }]);
  else process.nextTick(cb, null, address, 4);
}

(dns as { lookup: unknown }).lookup = lookup;
