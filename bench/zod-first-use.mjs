// zod's cost in a fresh provider process (issue 35 §3, s41-zod): by hand after a build (dist/), from the repository:
//   node bench/zod-first-use.mjs [rounds, default 9]
// Bundles a small entry as the faces' bundles are made (esbuild, minified, node20, CommonJS) twice: its `warm()` empty
// ("cold": zod is not in the code cache, as in the tofu bundle before sdk/client/warm.ts) or calling warmValidators()
// ("warm"), each with its V8 code cache written after warm() by dist/provider/shared/load-bundle.js, as
// scripts/bundle.mjs does. Then fresh processes, the two alternating, each loading its bundle with the cache and timing
// (process.cpuUsage, user+sys) what a working tofu provider process does with zod: load zod, validate a token body,
// the account limits, the dedicated-address listing, a device, an error answer. Medians per step, in ms of CPU.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

const require = createRequire(import.meta.url);
const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const loader = path.join(repo, "dist/provider/shared/load-bundle.js");
const ROUNDS = Number(process.argv[2] ?? 9);
const dir = mkdtempSync(path.join(os.tmpdir(), "zod-first-use-"));
const sdk = (p) => JSON.stringify(path.join(repo, "sdk", p));
const entry = (warm) => `
import { tokenBodySchema } from ${sdk("auth/token-response")};
import { accountLimitsSchema, dedicatedIPv4AddressListSchema, deviceSchema } from ${sdk("client/model")};
import { errorResponseSchema } from ${sdk("client/api-schemas")};
import { zod } from ${sdk("lazy")};
${warm ? `import { warmValidators } from ${sdk("client/warm")};` : ""}
const L = { limit: 10, used: 1 }, U = "https://d.example/dns-query";
const device = { id: "d", name: "n", device_type: "LINUX", dns_server_id: "s", settings: { detect_doh_auth_only: false, protection_enabled: true },
  dns_addresses: Object.fromEntries(["adguard_dns_over_https_url", "adguard_dns_over_quic_url", "adguard_dns_over_tls_url", "adguard_vpn_dns_over_https_url", "adguard_vpn_dns_over_quic_url", "adguard_vpn_dns_over_tls_url", "dns_over_https_url", "dns_over_quic_url", "dns_over_tls_url"].map((k) => [k, U])) };
const ok = (r) => { if (!r.success) throw new Error("refused"); };
export const steps = {
  "load zod": () => zod(),
  "token body": () => ok(tokenBodySchema().safeParse({ access_token: "a", token_type: "bearer", expires_in: 3600, refresh_token: "r" })),
  "account limits": () => ok(accountLimitsSchema().safeParse({ access_rules: L, dedicated_ipv4: L, devices: L, dns_servers: L, requests: L, user_rules: L })),
  "address listing": () => ok(dedicatedIPv4AddressListSchema().safeParse([{ ip: "192.0.2.1", device_id: null }])),
  "a device": () => ok(deviceSchema().safeParse(device)),
  "20 devices more": () => { for (let i = 0; i < 20; i++) ok(deviceSchema().safeParse({ ...device, id: "d" + i })); },
  "an error answer": () => ok(errorResponseSchema().safeParse({ error_code: "x", message: "m", fields: [] })),
};
export function warm() { ${warm ? "warmValidators();" : ""} }
`;
const esbuild = require("esbuild");
const bundles = {};
for (const face of ["cold", "warm"]) {
  const src = path.join(dir, `${face}.ts`), out = path.join(dir, `${face}.bundle.js`);
  writeFileSync(src, entry(face === "warm"));
  await esbuild.build({ entryPoints: [src], outfile: out, bundle: true, platform: "node", target: "node20", format: "cjs", minify: true, keepNames: true, legalComments: "none", logLevel: "error", absWorkingDir: repo, nodePaths: [path.join(repo, "node_modules")] });
  execFileSync(process.execPath, ["-e", `const l = require(${JSON.stringify(loader)}); const f = ${JSON.stringify(out)}; l.loadBundle(f).warm(); if (!l.refreshCache(f)) process.exit(1);`]);
  bundles[face] = out;
}
const probe = `const l = require(${JSON.stringify(loader)}); const f = process.argv[1];
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
let a = cpu(); const b = l.loadBundle(f); const out = { "load the bundle (its cache used)": cpu() - a };
if (!l.cacheUsed(f)) throw new Error("the code cache was not used");
for (const [k, s] of Object.entries(b.steps)) { a = cpu(); s(); out[k] = cpu() - a; }
console.log(JSON.stringify(out));`;
const runs = { cold: [], warm: [] };
for (let r = 0; r < ROUNDS; r++) for (const face of r % 2 ? ["warm", "cold"] : ["cold", "warm"]) runs[face].push(JSON.parse(execFileSync(process.execPath, ["-e", probe, bundles[face]], { encoding: "utf8" })));
const med = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const steps = Object.keys(runs.cold[0]);
console.log(`| step (ms of CPU, median of ${ROUNDS} fresh processes) | zod not in the code cache | warmValidators() in warm() |\n|---|---:|---:|`);
for (const s of steps) console.log(`| ${s} | ${med(runs.cold.map((x) => x[s])).toFixed(1)} | ${med(runs.warm.map((x) => x[s])).toFixed(1)} |`);
const zodSum = (x) => steps.slice(1).reduce((t, s) => t + x[s], 0);
console.log(`| zod, all steps | ${med(runs.cold.map(zodSum)).toFixed(1)} | ${med(runs.warm.map(zodSum)).toFixed(1)} |`);
rmSync(dir, { recursive: true, force: true });
