/**
 * Builds the Node tofu floor (./entry, ./floor) for `npm run bench -- tofu`, once per sources, Node and
 * esbuild, into `${XDG_CACHE_HOME:-~/.cache}/pulumi-dns-account/bench/tofu-floor-node/<hash>/`:
 *
 * - `entry.js`: ./entry bundled (with provider/tofu/tls.ts's minting), minified;
 * - `floor.bundle.js`: ./floor bundled (grpc-js, protobuf.js's light build, the tfplugin6 descriptor,
 *   undici), minified;
 * - `floor.bundle.js.cache`: its V8 code cache, written by this Node after loading the bundle and running
 *   its `warm()`, in a child process (it pays: through tofu, 0.20–0.23 s of CPU per provider process that
 *   makes no request with it, 0.27–0.30 s without; BENCH_NODE_FLOOR_NO_CACHE=1 loads the bundle without);
 * - `floor.bundle.js.ours.cache`: the same, warmed with BENCH_NODE_FLOOR_SCHEMA=ours (its msgpack codec);
 * - `schema-ours.bin`: our provider's GetProviderSchema answer (provider/tofu/schema-answer.ts), which the
 *   floor serves under BENCH_NODE_FLOOR_SCHEMA=ours;
 * - `terraform-provider-dnsaccount`: the launcher tofu starts, `#!/bin/sh` + `exec <this node> <entry.js>`
 *   (absolute paths: no PATH search, no `dirname`).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** The floor's sources (bench/ is compiled to dist/bench; the sources stay in bench/). */
const SRC = path.join(__dirname, "..", "..", "..", "bench", "tofu-floor-node");
const ROOT = path.join(SRC, "..", "..");
const SOURCES = [path.join(SRC, "entry.ts"), path.join(SRC, "floor.ts"), path.join(ROOT, "provider", "tofu", "protocol.ts"), path.join(ROOT, "provider", "tofu", "tls.ts")];

/**
 * The Node tofu floor's launcher (its folder holds the bundles and the code cache), built when missing.
 *
 * @example
 * ```ts
 * const bin = await buildNodeFloor(); // …/terraform-provider-dnsaccount
 * ```
 */
export async function buildNodeFloor(): Promise<string> {
  const esbuild = (await import("esbuild")) as typeof import("esbuild");
  const hash = createHash("sha256").update(process.execPath).update(process.version).update(esbuild.version);
  for (const f of SOURCES) hash.update(readFileSync(f));
  // Our provider's GetProviderSchema answer, for BENCH_NODE_FLOOR_SCHEMA=ours (./floor).
  const ourSchema = (require("../../provider/tofu/schema-answer") as typeof import("../../provider/tofu/schema-answer")).encodeSchemaAnswer();
  hash.update(ourSchema);
  const cache = process.env["XDG_CACHE_HOME"] || path.join(os.homedir(), ".cache");
  const dir = path.join(cache, "pulumi-dns-account", "bench", "tofu-floor-node", hash.digest("hex").slice(0, 16));
  const bin = path.join(dir, "terraform-provider-dnsaccount");
  if (existsSync(bin)) return bin;
  process.stderr.write(`bench: tofu: esbuild of the Node tofu floor into ${dir}…\n`);
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const common = { bundle: true, platform: "node", target: "node20", format: "cjs", minify: true, legalComments: "none", logLevel: "silent" } as const;
  await esbuild.build({ ...common, entryPoints: [path.join(SRC, "entry.ts")], outfile: path.join(tmp, "entry.js"), external: ["./floor.bundle.js"] });
  await esbuild.build({ ...common, entryPoints: [path.join(SRC, "floor.ts")], outfile: path.join(tmp, "floor.bundle.js") });
  writeFileSync(path.join(tmp, "schema-ours.bin"), ourSchema);
  const bundle = path.join(tmp, "floor.bundle.js");
  const code = `const { loadWithCache } = require(${JSON.stringify(path.join(tmp, "entry.js"))}); const f = ${JSON.stringify(bundle)};
const { exports, script } = loadWithCache(f); exports.warm(); require("node:fs").writeFileSync(f + process.argv[1], script.createCachedData());`;
  // One cache per mode: the plain floor's holds none of our-schema mode's code (./floor's warm() follows the mode).
  const { BENCH_NODE_FLOOR_SCHEMA: _mode, ...env } = process.env;
  execFileSync(process.execPath, ["-e", code, ".cache"], { env, stdio: ["ignore", "ignore", "inherit"] });
  execFileSync(process.execPath, ["-e", code, ".ours.cache"], { env: { ...env, BENCH_NODE_FLOOR_SCHEMA: "ours" }, stdio: ["ignore", "ignore", "inherit"] });
  mkdirSync(path.dirname(dir), { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  const launcher = path.join(dir, "terraform-provider-dnsaccount");
  writeFileSync(launcher, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(dir, "entry.js"))} "$@"\n`);
  chmodSync(launcher, 0o755);
  return bin;
}
