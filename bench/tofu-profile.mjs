// Profiling of tofu's provider processes (issue 35 §3, s40-tofu-profile): where ours' time goes after the handshake,
// against the Go tofu floor. Not part of `npm run bench`; run by hand after a build (dist/), from the repository:
//   PROF_FLOOR_BIN=<go floor> PROF_SEA_BIN=<release executable> node bench/tofu-profile.mjs
// Faces (PROF_FACES, default floor,sea,npm): floor (the Go floor, PROF_FLOOR_BIN), sea (a release executable,
// PROF_SEA_BIN), npm (node dist/provider/tofu/bin.js), dev (node PROF_DEV_ENTRY, e.g. an unminified bundle's entry),
// old (node PROF_OLD_BIN, e.g. a copy of an earlier dist/provider/tofu/bin.js, for a paired A/B), node (the Node
// floor's launcher, PROF_NODE_FLOOR_BIN: bench/tofu-floor-node, built by `npm run bench -- tofu` into the cache),
// nodeours (the same Node floor serving our schema, BENCH_NODE_FLOOR_SCHEMA=ours).
// Each face is installed through dev_overrides as a wrapper that runs the provider under /usr/bin/time, so every
// provider process's user+sys CPU and wall time are recorded; tofu itself runs under /usr/bin/time too (its reaped
// children included), so tofu's own CPU = its total − its providers'. apply / plan / destroy of PROF_DEVICES (20)
// devices, PROF_ROUNDS (3) rounds after a warm-up, the faces' order rotating each round; the emulator's requests
// of round 1 by kind go to stderr. PROF_TRACE=1: one more pass per face with TF_LOG=trace, the logs written to
// PROF_OUT (read them with bench/tofu-profile-trace.mjs); PROF_CPUPROF=<dir>: that pass runs the node faces with
// --cpu-prof into <dir>/<face>/<command> (read them with bench/tofu-profile-cpu.cjs; PROF_CPUPROF needs PROF_TRACE=1).
// PROF_KEEP=1 keeps the folders.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const require = createRequire(import.meta.url);
const run = promisify(execFile);
const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const { startEmulator } = require(path.join(repo, "dist/emulator"));
const { createClient } = require(path.join(repo, "dist/sdk"));
const { _tofuBin, _tofuEnv } = require(path.join(repo, "dist/test/support/tofu-cli"));
const SOURCE = "registry.opentofu.org/pulumi-dns-account/dnsaccount";
const REQUIRED = `terraform {\n  required_providers {\n    dnsaccount = { source = "${SOURCE}" }\n  }\n}\n`;
const USERNAME = "bench@example.com", PASSWORD = "bench-password-tofu";
const ROUNDS = Number(process.env.PROF_ROUNDS ?? 3), N = Number(process.env.PROF_DEVICES ?? 20);
const FLOOR = process.env.PROF_FLOOR_BIN, SEA = process.env.PROF_SEA_BIN;
const FACES = (process.env.PROF_FACES ?? "floor,sea,npm").split(",");
const NODE_FLOOR = process.env.PROF_NODE_FLOOR_BIN;
const real = { floor: [FLOOR], node: [NODE_FLOOR], nodeours: [NODE_FLOOR], sea: [SEA], npm: [process.execPath, path.join(repo, "dist/provider/tofu/bin.js")], dev: [process.execPath, process.env.PROF_DEV_ENTRY], old: [process.execPath, process.env.PROF_OLD_BIN] };

let reqs = [];
const emu = await startEmulator({ users: [{ username: USERNAME, password: PASSWORD }], apiKeys: [{ key: "k", username: USERNAME }], limits: { devices: N + 10 }, log: (line) => reqs.push(line.replace(/\/(?=[^/ ]*\d)[^/ ]{8,}(?=[/ ])/g, "/{id}")) });
const client = createClient({ baseUrl: emu.url, apiKey: "k" });
const server = await client.dnsServers.create({ name: "Prof" });
const root = mkdtempSync(path.join(os.tmpdir(), "tofu-prof-"));
const dirs = {};
for (const face of FACES) {
  const d = path.join(root, face);
  const plugins = path.join(d, "plugins"), times = path.join(d, "times"), cfg = path.join(d, "cfg");
  for (const x of [plugins, times, cfg]) mkdirSync(x, { recursive: true });
  const w = path.join(plugins, "terraform-provider-dnsaccount");
  writeFileSync(w, `#!/bin/bash\nexec /usr/bin/time -o "${times}/$$.\${PROF_TAG:-x}.time" -f "%U %S %e %M" ${real[face].map((a) => JSON.stringify(a)).join(" ").replace(/^("[^"]*")/, ["npm", "dev", "old"].includes(face) ? "$1 $PROF_NODE_FLAGS" : "$1")} "$@"\n`);
  chmodSync(w, 0o755);
  const env = _tofuEnv(d, `provider_installation {\n  dev_overrides {\n    "${SOURCE}" = "${plugins}"\n  }\n  direct {}\n}\n`, { DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_PASSWORD: PASSWORD, ...(face === "nodeours" ? { BENCH_NODE_FLOOR_SCHEMA: "ours" } : {}) });
  writeFileSync(path.join(cfg, "main.tf"), `${REQUIRED}provider "dnsaccount" {\n  username = "${USERNAME}"\n}\nresource "dnsaccount_device" "d" {\n  count         = ${N}\n  name          = "Device \${count.index}"\n  device_type   = "LINUX"\n  dns_server_id = ${JSON.stringify(server.id)}\n}\n`);
  dirs[face] = { cfg, times, env };
}
const tofu = path.join(_tofuBin(), "tofu");
async function command(face, cmd, tag, extra = {}) {
  const { cfg, times, env } = dirs[face];
  const args = cmd === "plan" ? ["plan", "-no-color", "-input=false"] : [cmd, "-no-color", "-input=false", "-auto-approve"];
  const tfile = path.join(times, `tofu.${tag}.time`);
  const t = performance.now();
  const r = await run("/usr/bin/time", ["-o", tfile, "-f", "%U %S %e", tofu, ...args], { cwd: cfg, env: { ...env, PROF_TAG: tag, ...extra }, maxBuffer: 512 << 20 });
  const wall = performance.now() - t;
  const [tu, ts] = readFileSync(tfile, "utf8").trim().split("\n").pop().split(" ").map(Number);
  const procs = readdirSync(times).filter((f) => f.endsWith(`.${tag}.time`) && !f.startsWith("tofu.")).map((f) => {
    const [u, s, e, m] = readFileSync(path.join(times, f), "utf8").trim().split("\n").pop().split(" ").map(Number);
    return { cpu: (u + s) * 1000, wall: e * 1000, rssMb: m / 1024 };
  });
  const provCpu = procs.reduce((a, p) => a + p.cpu, 0);
  return { wall, tofuTotalCpu: (tu + ts) * 1000, provCpu, tofuOwnCpu: (tu + ts) * 1000 - provCpu, procs, stderr: r.stderr };
}
const results = [];
const cmds = ["apply", "plan", "destroy"];
// warm-up
for (const face of FACES) { await command(face, "plan", `warm-${face}`); }
for (let r = 0; r < ROUNDS; r++) {
  const order = [...FACES.slice(r % FACES.length), ...FACES.slice(0, r % FACES.length)];
  for (const face of order) for (const cmd of cmds) {
    reqs = [];
    const x = await command(face, cmd, `r${r}-${cmd}`);
    if (r === 0) { const c = new Map(); for (const l of reqs) c.set(l, (c.get(l) ?? 0) + 1); process.stderr.write(`requests ${face} ${cmd}: ${[...c].map(([l, n]) => `${n}× ${l}`).join(", ")}\n`); }
    results.push({ face, cmd, round: r, ...x, stderr: undefined });
    process.stderr.write(`round ${r} ${face} ${cmd}: wall ${x.wall.toFixed(0)} tofu own cpu ${x.tofuOwnCpu.toFixed(0)} providers cpu ${x.provCpu.toFixed(0)} [${x.procs.map((p) => `${p.cpu.toFixed(0)}/${p.wall.toFixed(0)}`).join(" ")}]\n`);
  }
}
if (process.env.PROF_OUT) mkdirSync(process.env.PROF_OUT, { recursive: true });
if (process.env.PROF_TRACE) {
  for (const face of FACES) for (const cmd of cmds) {
    const extra = { TF_LOG: "trace" };
    if (["npm", "dev", "old"].includes(face) && process.env.PROF_CPUPROF) { mkdirSync(path.join(process.env.PROF_CPUPROF, face, cmd), { recursive: true }); extra.PROF_NODE_FLAGS = `--cpu-prof --cpu-prof-interval=200 --cpu-prof-dir=${path.join(process.env.PROF_CPUPROF, face, cmd)}`; }
    const x = await command(face, cmd, `trace-${cmd}`, extra);
    writeFileSync(path.join(process.env.PROF_OUT ?? root, `trace-${face}-${cmd}.log`), x.stderr);
  }
}
writeFileSync(path.join(process.env.PROF_OUT ?? root, "results.json"), JSON.stringify(results, null, 1));
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log("| command | face | wall ms | tofu own CPU ms | providers CPU ms | processes | per process CPU ms (median round) | per process wall ms |\n|---|---|---:|---:|---:|---:|---|---|");
for (const cmd of cmds) for (const face of FACES) {
  const rs = results.filter((x) => x.face === face && x.cmd === cmd);
  if (!rs.length) continue;
  const mid = rs.sort((a, b) => a.provCpu - b.provCpu)[Math.floor(rs.length / 2)];
  console.log(`| ${cmd} | ${face} | ${med(rs.map((x) => x.wall)).toFixed(0)} | ${med(rs.map((x) => x.tofuOwnCpu)).toFixed(0)} | ${med(rs.map((x) => x.provCpu)).toFixed(0)} | ${mid.procs.length} | ${mid.procs.map((p) => p.cpu.toFixed(0)).join(", ")} | ${mid.procs.map((p) => p.wall.toFixed(0)).join(", ")} |`);
}
await client.close(); await emu.close();
if (!process.env.PROF_KEEP) rmSync(root, { recursive: true, force: true });
