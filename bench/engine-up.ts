/**
 * `npm run bench -- engine-up`: `pulumi up` then `pulumi destroy` of N Devices (BENCH_DEVICES, default
 * 100) under the real engine (`npm run engine`'s `pulumi`), for both faces, against the raw-call floor
 * measured in the same run, rounds interleaved (the order rotates each round), medians printed:
 * - plugin face: a Pulumi YAML program through the npm-installed plugin (`pulumi up --yes --skip-preview`,
 *   `pulumi destroy --yes --skip-preview`, each a fresh `pulumi` process as a user runs it);
 * - dynamic face: a Node.js program with N `Device`s run by `pulumi up` through the Node.js language host (its
 *   `up()` and `destroy()` skip the preview too), from an `npm pack` install of this package;
 * - raw floor: a bare node process per phase, one login and exactly the requests the service needs
 *   (N POSTs, then N DELETEs) through undici `Pool(16)`, all in flight (./floor-ops).
 * Requests are counted at the emulator. Times are wall time of the whole command; ratios are medians
 * of the per-round ratios. BENCH_ROUNDS (default 3). Nothing here asserts a time.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { startEmulator } from "../emulator";
import { createClient } from "../sdk";
import { _installedProgram, _runInProgram } from "../test/support/program";
import { _dynamicMissing, _engineMissing, _engineVersion, _nodeProgramProject, _pulumiProject } from "../test/support/pulumi-cli";

const USERNAME = "bench@example.com";
const PASSWORD = "bench-password-engine-up";
const OPS = path.join(__dirname, "floor-ops.js");

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number, digits = 2): string => n.toFixed(digits);

type Face = "floor" | "plugin" | "dynamic";
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
  const yaml = _pulumiProject("dns-account-bench-yaml-", { PATH: path.join(installed, "node_modules", ".bin") });
  const resources = Array.from({ length: n }, (_, i) => `  d${i}:\n    type: dns-account:index:Device\n    properties:\n      name: Device ${i}\n      deviceType: LINUX\n      dnsServerId: ${server.id}\n`).join("");
  writeFileSync(path.join(yaml.dir, "Pulumi.yaml"), `name: dns-account-bench-yaml\nruntime: yaml\nresources:\n${resources}`);
  const dynamic = _nodeProgramProject("dns-account-bench-dynamic-", installed, {
    "index.js": `const { Device } = require("pulumi-dns-account");
for (let i = 0; i < ${n}; i++) new Device("d" + i, { name: "Device " + i, deviceType: "LINUX", dnsServerId: ${JSON.stringify(server.id)} });
`,
  });
  const samples: Record<Face, Record<Phase, Sample[]>> = { floor: { up: [], destroy: [] }, plugin: { up: [], destroy: [] }, dynamic: { up: [], destroy: [] } };
  const floorIds: string[][] = [];
  try {
    await yaml.pulumi("stack", "init", "dev");
    for (const [k, v] of [["dns-account:baseUrl", emu.url], ["dns-account:username", USERNAME]]) await yaml.pulumi("config", "set", k!, v!);
    await yaml.pulumi("config", "set", "--secret", "dns-account:password", PASSWORD);
    await dynamic.config({ "dns-account:baseUrl": { value: emu.url }, "dns-account:username": { value: USERNAME }, "dns-account:password": { value: PASSWORD, secret: true } });

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
      dynamic: async (phase) => void (await dynamic.run(phase)),
    };
    const order: Face[] = ["floor", "plugin", "dynamic"];
    for (let r = 0; r < rounds; r++) {
      const rotated = [...order.slice(r % 3), ...order.slice(0, r % 3)];
      for (const face of rotated) {
        for (const phase of ["up", "destroy"] as const) {
          process.stderr.write(`bench: engine-up round ${r + 1}/${rounds}: ${face} ${phase}…\n`);
          samples[face][phase].push(await measure(() => faces[face](phase)));
          if (phase === "up") {
            const devices = (await client.devices.list()).filter((d) => d.dns_server_id === server.id).length;
            if (devices !== n) throw new Error(`${face} up left ${devices} devices, not ${n}`);
          }
        }
      }
      const left = (await client.devices.list()).filter((d) => d.dns_server_id === server.id).length;
      if (left !== 0) throw new Error(`round ${r + 1} left ${left} devices`);
    }
  } finally {
    dynamic.remove();
    yaml.remove();
    await client.close();
    await emu.close();
  }
  console.log(`\n### pulumi up / destroy of ${n} Devices under the real engine (pulumi ${_engineVersion()}), ${rounds} interleaved rounds, medians\n`);
  console.log("| phase | face | requests (floor / ours) | floor ms | ours ms | ours ÷ floor (wall) |\n|---|---|---|---:|---:|---:|");
  for (const phase of ["up", "destroy"] as const) {
    for (const face of ["plugin", "dynamic"] as const) {
      const ratios = samples[face][phase].map((s, i) => s.ms / samples.floor[phase][i]!.ms);
      console.log(
        `| pulumi ${phase} | ${face} | ${median(samples.floor[phase].map((s) => s.requests))} / ${median(samples[face][phase].map((s) => s.requests))} | ${fmt(median(samples.floor[phase].map((s) => s.ms)), 0)} | ${fmt(median(samples[face][phase].map((s) => s.ms)), 0)} | ${fmt(median(ratios), 1)}× |`,
      );
    }
  }
}
