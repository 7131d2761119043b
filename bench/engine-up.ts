/**
 * `npm run bench -- engine-up`: `pulumi up` then `pulumi destroy` of N Devices (BENCH_DEVICES, default
 * 100) under the real engine (`npm run engine`'s `pulumi`), for both faces, against the raw-call floor
 * measured in the same run, rounds interleaved (the order rotates each round), medians printed:
 * - plugin face: a Pulumi YAML program through the npm-installed plugin (`pulumi up --yes --skip-preview`,
 *   `pulumi destroy --yes --skip-preview`, each a fresh `pulumi` process as a user runs it);
 * - dynamic face: a Node.js program with N `Device`s run by `pulumi up` through the Node.js language host (its
 *   `up()` and `destroy()` skip the preview too), from an `npm pack` install of this package;
 * - raw floor: a bare node process per phase, one login and exactly the requests the service needs
 *   (N POSTs, then N DELETEs) through undici `Pool(16)`, all in flight (./floor-ops);
 * - the engine floor of each face (issue 33 §5): the same program, the same `pulumi` command and the same
 *   language host, with a trivial provider that makes exactly the raw floor's requests (one login, N
 *   POSTs or N DELETEs, ./floor-ops): for the plugin face the same Pulumi.yaml with ./floor-plugin as
 *   `pulumi-resource-dns-account` on PATH (a `/bin/sh` wrapper that `exec`s node on it), for the dynamic
 *   face the same Node.js program whose `Device` is a `pulumi.dynamic.Resource` of ./floor-dynamic
 *   (installed as a package in the program's node_modules, so its `__provider` is a `require()` as ours
 *   is), reading the same stack config;
 * - each language host's own start-up: `pulumi preview` of an empty program in nodejs, python, go, java
 *   and yaml (./host-startup), in the same rounds.
 * Requests are counted at the emulator. Times are wall time of the whole command; ratios are medians
 * of the per-round ratios; "ours − engine floor" is the median of the per-round differences: the time
 * our provider adds. BENCH_ROUNDS (default 3). Nothing here asserts a time.
 */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmulator } from "../emulator";
import { createClient } from "../sdk";
import { _installedProgram, _runInProgram } from "../test/support/program";
import { _dynamicMissing, _engineMissing, _engineVersion, _nodeProgramProject, _pulumiProject } from "../test/support/pulumi-cli";
import { type HostProgram, hostPrograms } from "./host-startup";
import { fmt, median } from "./stats";

const USERNAME = "bench@example.com";
const PASSWORD = "bench-password-engine-up";
const OPS = path.join(__dirname, "floor-ops.js");


type Face = "floor" | "plugin" | "plugin engine floor" | "dynamic" | "dynamic engine floor";
const FACES: readonly Face[] = ["floor", "plugin engine floor", "plugin", "dynamic engine floor", "dynamic"];
type Phase = "up" | "destroy";
interface Sample {
  ms: number;
  requests: number;
}

/** Runs the engine-up bench and prints its table. */
export async function engineUp(): Promise<void> {
  const missing = _engineMissing("yaml") ?? _dynamicMissing();
  if (missing) {
    console.log(`engine-up: not run: ${missing}`);
    return;
  }
  const n = Number(process.env.BENCH_DEVICES ?? 100);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const emu = await startEmulator({ users: [{ username: USERNAME, password: PASSWORD }], limits: { devices: n + 10 } });
  const client = createClient({ baseUrl: emu.url, credentials: { username: USERNAME, password: PASSWORD } });
  const installed = await _installedProgram();
  const server = await client.dnsServers.create({ name: "Bench" });
  // The plugin face's engine floor as `pulumi-resource-dns-account`: a wrapper in a folder of its own,
  // first on that project's PATH (ours is the installed package's node_modules/.bin on the other's).
  const floorBin = mkdtempSync(path.join(os.tmpdir(), "dns-account-bench-floor-bin-"));
  const wrapper = path.join(floorBin, "pulumi-resource-dns-account");
  writeFileSync(wrapper, `#!/bin/sh\ncd ${JSON.stringify(installed)} && exec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(__dirname, "floor-plugin.js"))} "$@"\n`);
  chmodSync(wrapper, 0o755);
  // The dynamic face's engine floor as a package in the installed program's node_modules: Pulumi's closure
  // serializer writes a `require("dns-account-bench-floor")` for it, as it writes one of our module for ours.
  const floorPkg = path.join(installed, "node_modules", "dns-account-bench-floor");
  mkdirSync(floorPkg, { recursive: true });
  for (const f of ["floor-dynamic.js", "floor-ops.js"]) cpSync(path.join(__dirname, f), path.join(floorPkg, f));
  writeFileSync(path.join(floorPkg, "package.json"), JSON.stringify({ name: "dns-account-bench-floor", version: "0.0.0", main: "floor-dynamic.js" }));

  const resources = Array.from({ length: n }, (_, i) => `  d${i}:\n    type: dns-account:index:Device\n    properties:\n      name: Device ${i}\n      deviceType: LINUX\n      dnsServerId: ${server.id}\n`).join("");
  const yamlProgram = `name: dns-account-bench-yaml\nruntime: yaml\nresources:\n${resources}`;
  const yaml = _pulumiProject("dns-account-bench-yaml-", { PATH: path.join(installed, "node_modules", ".bin") });
  writeFileSync(path.join(yaml.dir, "Pulumi.yaml"), yamlProgram);
  const yamlFloor = _pulumiProject("dns-account-bench-yaml-floor-", { PATH: floorBin });
  writeFileSync(path.join(yamlFloor.dir, "Pulumi.yaml"), yamlProgram);
  const dynamic = _nodeProgramProject("dns-account-bench-dynamic-", installed, {
    "index.js": `const { Device } = require("pulumi-dns-account");
for (let i = 0; i < ${n}; i++) new Device("d" + i, { name: "Device " + i, deviceType: "LINUX", dnsServerId: ${JSON.stringify(server.id)} });
`,
  });
  const dynamicFloor = _nodeProgramProject("dns-account-bench-dynamic-floor-", installed, {
    "index.js": `const pulumi = require("@pulumi/pulumi");
const floor = require("dns-account-bench-floor");
class Device extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    super(floor, name, { kind: "Device", body: { name: args.name, device_type: args.deviceType, dns_server_id: args.dnsServerId } }, opts, "dns-account", "Device");
  }
}
for (let i = 0; i < ${n}; i++) new Device("d" + i, { name: "Device " + i, deviceType: "LINUX", dnsServerId: ${JSON.stringify(server.id)} });
`,
  });
  const samples = Object.fromEntries(FACES.map((f) => [f, { up: [], destroy: [] }])) as unknown as Record<Face, Record<Phase, Sample[]>>;
  const hostSamples = new Map<string, number[]>();
  let hosts: HostProgram[] = [];
  const floorIds: string[][] = [];
  try {
    for (const p of [yaml, yamlFloor]) {
      await p.pulumi("stack", "init", "dev");
      for (const [k, v] of [["dns-account:baseUrl", emu.url], ["dns-account:username", USERNAME]]) await p.pulumi("config", "set", k!, v!);
      await p.pulumi("config", "set", "--secret", "dns-account:password", PASSWORD);
    }
    for (const p of [dynamic, dynamicFloor]) {
      await p.config({ "dns-account:baseUrl": { value: emu.url }, "dns-account:username": { value: USERNAME }, "dns-account:password": { value: PASSWORD, secret: true } });
    }
    hosts = await hostPrograms(installed);

    const measure = async (what: () => Promise<unknown>): Promise<Sample> => {
      const before = emu.stats.requests;
      const t = performance.now();
      await what();
      return { ms: performance.now() - t, requests: emu.stats.requests - before };
    };
    const floorPhase = (phase: Phase, ids: string[]) =>
      _runInProgram(
        "bench-engine-up-floor",
        `const ops = require(${JSON.stringify(OPS)});
const t = { baseUrl: ${JSON.stringify(emu.url)}, username: ${JSON.stringify(USERNAME)}, password: process.env.BENCH_PASSWORD };
const ids = JSON.parse(process.env.BENCH_IDS);
(async () => {
  const made = ${JSON.stringify(phase)} === "up"
    ? await Promise.all(Array.from({ length: ${n} }, (_, i) => ops.create(t, "Device", { name: "Device " + i, device_type: "LINUX", dns_server_id: ${JSON.stringify(server.id)} }).then((m) => m.id)))
    : await Promise.all(ids.map((id) => ops.remove(t, "Device", id).then(() => id)));
  await ops.close();
  console.log(JSON.stringify(made));
})();`,
        { BENCH_PASSWORD: PASSWORD, BENCH_IDS: JSON.stringify(ids) },
      );
    const faces: Record<Face, (phase: Phase) => Promise<void>> = {
      floor: async (phase) => {
        const { stdout } = await floorPhase(phase, phase === "up" ? [] : floorIds.pop()!);
        if (phase === "up") floorIds.push(JSON.parse(stdout) as string[]);
      },
      plugin: async (phase) => void (await yaml.pulumi(phase, "--yes", "--skip-preview")),
      "plugin engine floor": async (phase) => void (await yamlFloor.pulumi(phase, "--yes", "--skip-preview")),
      dynamic: async (phase) => void (await dynamic.run(phase)),
      "dynamic engine floor": async (phase) => void (await dynamicFloor.run(phase)),
    };
    const measured = hosts.filter((h) => h.preview);
    for (let r = 0; r < rounds; r++) {
      const rotated = [...FACES.slice(r % FACES.length), ...FACES.slice(0, r % FACES.length)];
      for (const face of rotated) {
        for (const phase of ["up", "destroy"] as const) {
          process.stderr.write(`bench: engine-up round ${r + 1}/${rounds}: ${face} ${phase}…\n`);
          samples[face][phase].push(await measure(() => faces[face](phase)));
          const devices = (await client.devices.list()).filter((d) => d.dns_server_id === server.id).length;
          if (devices !== (phase === "up" ? n : 0)) throw new Error(`${face} ${phase} left ${devices} devices, not ${phase === "up" ? n : 0}`);
        }
      }
      const hostOrder = [...measured.slice(r % Math.max(1, measured.length)), ...measured.slice(0, r % Math.max(1, measured.length))];
      for (const h of hostOrder) {
        process.stderr.write(`bench: engine-up round ${r + 1}/${rounds}: pulumi preview of the empty ${h.runtime} program…\n`);
        const t = performance.now();
        await h.preview!();
        hostSamples.set(h.runtime, [...(hostSamples.get(h.runtime) ?? []), performance.now() - t]);
      }
    }
  } finally {
    for (const p of [dynamic, dynamicFloor, yaml, yamlFloor, ...hosts]) p.remove();
    rmSync(floorBin, { recursive: true, force: true });
    rmSync(floorPkg, { recursive: true, force: true });
    await client.close();
    await emu.close();
  }
  const med = (face: Face, phase: Phase, f: (s: Sample) => number): number => median(samples[face][phase].map(f));
  const ratio = (a: Face, b: Face, phase: Phase): number => median(samples[a][phase].map((s, i) => s.ms / samples[b][phase][i]!.ms));
  const diff = (a: Face, b: Face, phase: Phase): number => median(samples[a][phase].map((s, i) => s.ms - samples[b][phase][i]!.ms));
  const spread = (a: Face, b: Face, phase: Phase): string => {
    const rs = samples[a][phase].map((s, i) => s.ms / samples[b][phase][i]!.ms);
    return `${fmt(Math.min(...rs), 2)}–${fmt(Math.max(...rs), 2)}`;
  };
  console.log(`\n### pulumi up / destroy of ${n} Devices under the real engine (pulumi ${_engineVersion()}), ${rounds} interleaved rounds, medians\n`);
  console.log(
    "| phase | face | requests: raw / engine floor / ours | raw ms | engine floor ms | ours ms | engine floor ÷ raw | ours ÷ raw | ours ÷ engine floor (goal ≤ 1.15×) | its rounds, min–max | ours − engine floor (ms) |\n|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|",
  );
  for (const phase of ["up", "destroy"] as const) {
    for (const face of ["plugin", "dynamic"] as const) {
      const floor = `${face} engine floor` as Face;
      const req = (f: Face) => med(f, phase, (s) => s.requests);
      const r = ratio(face, floor, phase);
      console.log(
        `| pulumi ${phase} | ${face} | ${req("floor")} / ${req(floor)} / ${req(face)} | ${fmt(med("floor", phase, (s) => s.ms), 0)} | ${fmt(med(floor, phase, (s) => s.ms), 0)} | ${fmt(med(face, phase, (s) => s.ms), 0)} | ` +
          `${fmt(ratio(floor, "floor", phase), 1)}× | ${fmt(ratio(face, "floor", phase), 1)}× | ${fmt(r, 2)}×${r > 1.15 ? " (over)" : ""} | ${spread(face, floor, phase)} | ${fmt(diff(face, floor, phase), 0)} |`,
      );
    }
  }
  console.log(`\n### Language hosts' start-up: \`pulumi preview\` of an empty program, ${rounds} rounds (after one warm-up each), medians\n`);
  console.log("| runtime | median ms | min–max ms |\n|---|---:|---|");
  for (const h of hosts) {
    const xs = hostSamples.get(h.runtime);
    console.log(xs && xs.length ? `| ${h.runtime} | ${fmt(median(xs), 0)} | ${fmt(Math.min(...xs), 0)}–${fmt(Math.max(...xs), 0)} |` : `| ${h.runtime} | not measured: ${h.why ?? "no samples"} | |`);
  }
}
