/**
 * `npm run bench -- tofu-start` (issue 35 §3): the OpenTofu provider's start, spawn to its handshake line,
 * as tofu starts it (`TF_PLUGIN_MAGIC_COOKIE`, `PLUGIN_PROTOCOL_VERSIONS=6`, `PLUGIN_CLIENT_CERT` = a PEM
 * client certificate, so AutoMTLS is on), against the least a Node.js provider can do:
 *
 * - the single executable, what users run: `npm run package:tofu`'s linux-amd64 zip, unpacked;
 * - the npm bin, `node_modules/.bin/terraform-provider-dnsaccount` of an `npm pack` install
 *   (test/support/program);
 * - the bare node: `node -e` that reads a key and a self-signed certificate made before the timing (files
 *   written by this process), creates a `tls.Server` that requires and verifies a client certificate
 *   against `PLUGIN_CLIENT_CERT` (TLS ≥ 1.2, ALPN h2), listens on 127.0.0.1 on a port the system picks, and
 *   prints the handshake line with that certificate's DER as base64.
 *
 * Each round starts the three in a rotating order; each start's line is checked (six fields, a
 * certificate), the process killed and its exit waited for. The ratio is the median of the per-round
 * ratios to the bare node's time (target ≤ 1.3×). The time from spawn to tofu's first answer
 * (GetProviderSchema over mTLS, the certificate pinned as go-plugin pins it) is reported beside it: the
 * line comes before the face's gRPC server is loaded, and tofu's first call waits for it.
 *
 * BENCH_TOFU_START_BEFORE: other starts to measure in the same rounds (comma-separated; a `.js` file runs
 * with this node, anything else is executed), e.g. a copy of an older build's bin.js beside its bundle.
 * BENCH_TOFU_START_ROUNDS: rounds (default 21).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { unzipSync } from "fflate";
import { mintServerCertificate } from "../provider/tofu/tls";
import { _installedProgram } from "../test/support/program";
import { _removeRunTempDirs } from "../test/support/temp";
import { _faceClients, _pluginEnv, _startFace, _unary, type StartedFace } from "../test/support/tofu-face";
import { type BenchRow, fmt, median } from "./stats";

const ROOT = path.resolve(__dirname, "..", "..");

/** The bare node's script: a TLS listener with a client-certificate requirement, and the line. */
export const BARE_TLS_LISTENER = [
  "const tls = require('node:tls'), fs = require('node:fs');",
  "const [key, cert] = [process.env.BENCH_KEY, process.env.BENCH_CERT].map((f) => fs.readFileSync(f, 'utf8'));",
  "const der = cert.replace(/-----[^-]+-----|\\s/g, '').replace(/=+$/, '');",
  "const s = tls.createServer({ key, cert, ca: process.env.PLUGIN_CLIENT_CERT, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.2', ALPNProtocols: ['h2'] });",
  "s.listen(0, '127.0.0.1', () => process.stdout.write('1|6|tcp|127.0.0.1:' + s.address().port + '|grpc|' + der + '\\n'));",
].join("\n");

/** A start as tofu makes it: spawn to the handshake line (ms wall), the face it made. */
async function startOnce(command: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; face: StartedFace }> {
  const t = performance.now();
  const face = await _startFace(env, command as [string, ...string[]]);
  const ms = performance.now() - t;
  if (face.fields.length !== 6 || face.fields[0] !== "1" || face.fields[1] !== "6" || !face.fields[5]) {
    face.child.kill("SIGKILL");
    throw new Error(`${command.join(" ")}: no handshake line with a certificate: ${face.stdout()}\n${face.stderr()}`);
  }
  return { ms, face };
}

/** Kills a started face and waits for its exit. */
async function stop(face: StartedFace): Promise<void> {
  if (face.child.exitCode === null && face.child.signalCode === null) {
    face.child.kill("SIGKILL");
    await face.exited;
  }
}

/**
 * Measures the provider's start against the bare node (see the file's comment); calls `push` with its
 * rows.
 *
 * @example
 * ```ts
 * await tofuStart((row) => rows.push(row));
 * ```
 */
export async function tofuStart(push: (row: BenchRow) => void): Promise<void> {
  const program = await _installedProgram();
  const out = mkdtempSync(path.join(tmpdir(), "dns-account-bench-tofu-start-"));
  try {
    const script = pathToFileURL(path.join(ROOT, "scripts", "package-tofu.mjs")).href;
    const { packageTofu } = (await import(script)) as { packageTofu(o: { outDir: string; log(line: string): void }): Promise<{ zips: string[] }> };
    const { zips } = await packageTofu({ outDir: path.join(out, "artifacts"), log: () => undefined });
    const [name, bytes] = Object.entries(unzipSync(readFileSync(zips[0]!)))[0]!;
    const sea = path.join(out, name);
    writeFileSync(sea, bytes, { mode: 0o755 });

    // tofu's client certificate (P-521, as go-plugin's client mints it) and the bare node's own, made before any timing.
    const tofuCert = mintServerCertificate(new Date(), "P-521");
    const bareCert = mintServerCertificate();
    const files = { key: path.join(out, "bare.key"), cert: path.join(out, "bare.crt") };
    writeFileSync(files.key, bareCert.keyPem, { mode: 0o600 });
    writeFileSync(files.cert, bareCert.certPem);
    const env = _pluginEnv({ PLUGIN_PROTOCOL_VERSIONS: "6", PLUGIN_CLIENT_CERT: tofuCert.certPem, BENCH_KEY: files.key, BENCH_CERT: files.cert });

    const before = (process.env["BENCH_TOFU_START_BEFORE"] ?? "").split(",").filter(Boolean);
    const commands: Record<string, string[]> = {
      bare: [process.execPath, "-e", BARE_TLS_LISTENER],
      sea: [sea],
      npm: [path.join(program, "node_modules", ".bin", "terraform-provider-dnsaccount")],
      ...Object.fromEntries(before.map((c, i) => [`before ${i + 1} (${c})`, c.endsWith(".js") ? [process.execPath, c] : [c]])),
    };
    const names = Object.keys(commands);
    // The first start of a fresh 90 MB file pays for reading it from disk; every other once too.
    for (const n of names) await stop((await startOnce(commands[n]!, env)).face);

    const rounds = Number(process.env["BENCH_TOFU_START_ROUNDS"] ?? 21);
    const load = loadavg()[0]!.toFixed(1);
    const line: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    const ratio: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    for (let i = 0; i < rounds; i++) {
      const order = names.map((_, j) => names[(i + j) % names.length]!);
      const r: Record<string, number> = {};
      for (const n of order) {
        const { ms, face } = await startOnce(commands[n]!, env);
        await stop(face);
        r[n] = ms;
      }
      for (const n of names) {
        line[n]!.push(r[n]!);
        ratio[n]!.push(r[n]! / r["bare"]!);
      }
    }
    // Spawn to tofu's first answer, in rounds of their own (the client's work would weigh on the lines' timing).
    const faces = names.filter((n) => n !== "bare");
    const answer: Record<string, number[]> = Object.fromEntries(faces.map((n) => [n, []]));
    for (let i = 0; i < Math.ceil(rounds / 2); i++) {
      for (const n of faces.map((_, j) => faces[(i + j) % faces.length]!)) {
        const t = performance.now();
        const { face } = await startOnce(commands[n]!, env);
        const c = _faceClients(face, tofuCert);
        try {
          const schema = await _unary(c["provider"], "GetProviderSchema");
          answer[n]!.push(performance.now() - t);
          if (!schema.resource_schemas?.["dnsaccount_device"]) throw new Error(`${n}: GetProviderSchema without dnsaccount_device`);
        } finally {
          for (const client of Object.values(c)) client.close();
          await stop(face);
        }
      }
    }
    const bare = median(line["bare"]!);
    const label = (n: string): string => (n === "sea" ? "the single executable (package:tofu's zip)" : n === "npm" ? "the npm bin (npm pack install)" : n);
    for (const n of faces) {
      const m = median(ratio[n]!);
      push({
        what: `tofu provider start to its handshake line (AutoMTLS): ${label(n)} vs a bare node with a TLS listener requiring a client certificate (ms wall, median of ${rounds} interleaved rounds, load ${load})`,
        ours: fmt(median(line[n]!), 1),
        baseline: fmt(bare, 1),
        ratio: `${fmt(m)}×`,
        target: n === "sea" || n === "npm" ? "≤ 1.30×" : "(reported)",
        met: n === "sea" || n === "npm" ? m <= 1.3 : true,
      });
    }
    for (const n of faces) {
      push({
        what: `tofu provider start to tofu's first answer (GetProviderSchema over mTLS): ${label(n)} vs the bare node's line (ms wall, median of ${Math.ceil(rounds / 2)} rounds, load ${load})`,
        ours: fmt(median(answer[n]!), 1),
        baseline: fmt(bare, 1),
        ratio: `${fmt(median(answer[n]!) / bare)}×`,
        target: "(reported)",
        met: true,
      });
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** For `node dist/bench/tofu-start.js` alone: prints the rows. */
if (require.main === module) {
  const rows: BenchRow[] = [];
  tofuStart((row) => rows.push(row))
    .then(() => {
      console.log(`| measure | ours | baseline | ratio | target | met |\n|---|---:|---:|---:|---|---|`);
      for (const r of rows) console.log(`| ${r.what} | ${r.ours} | ${r.baseline} | ${r.ratio} | ${r.target} | ${r.met ? "yes" : "NO"} |`);
      console.log(`\nNode ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    })
    .finally(() => _removeRunTempDirs())
    .catch((err: unknown) => {
      console.error(`tofu-start failed: ${err instanceof Error ? err.stack : String(err)}`);
      process.exit(1);
    });
}
