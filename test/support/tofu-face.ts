import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { MAGIC_COOKIE_VALUE } from "../../provider/tofu/handshake";
import { LOADER_OPTIONS, PROTOCOL } from "../../provider/tofu/protocol";
import type { ServerCertificate } from "../../provider/tofu/tls";
import { _cleanEnv, _repoRoot } from "./helpers";
import { _runTempDir } from "./temp";

/* eslint-disable @typescript-eslint/no-explicit-any -- the loaded gRPC clients are untyped */

const loaded = grpc.loadPackageDefinition(protoLoader.fromJSON(PROTOCOL, LOADER_OPTIONS)) as any;

/**
 * The environment go-plugin gives a provider (the magic cookie, protocol versions 5 and 6 offered), on top
 * of ours without anything of tofu's, plugins' or Node's; `extra` last.
 *
 * @example
 * ```ts
 * const env = _pluginEnv({ PLUGIN_CLIENT_CERT: tofuCert.certPem });
 * ```
 */
export function _pluginEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(_cleanEnv()).filter(([k]) => !/^(TF_|PLUGIN_|NODE_OPTIONS$)/.test(k)));
  return { ...base, TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5,6", ...extra };
}

/** A started face: its child, everything it printed, and the handshake line's fields once it came. */
export interface StartedFace {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  fields: string[];
  exited: Promise<number | null>;
}

/**
 * Starts the face as go-plugin does (`command` and its arguments, `env`), and waits for its first stdout
 * line (or its exit).
 *
 * @example
 * ```ts
 * const face = await _startFace(_pluginEnv({}), [process.execPath, "dist/provider/tofu/bin.js"]);
 * face.fields; // ["1", "6", "tcp", "127.0.0.1:40123", "grpc", ""]
 * ```
 */
export async function _startFace(env: NodeJS.ProcessEnv, [command, ...args]: [string, ...string[]]): Promise<StartedFace> {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const line = await new Promise<string | undefined>((resolve) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    void exited.then(() => resolve(undefined));
  });
  return { child, stdout: () => out, stderr: () => err, fields: line === undefined ? [] : line.split("|"), exited };
}

/**
 * The server certificate a handshake line carries (base64 DER), as PEM.
 *
 * @example
 * ```ts
 * new X509Certificate(_pemOf(face.fields[5]!));
 * ```
 */
export function _pemOf(derBase64: string): string {
  const der = Buffer.from(derBase64, "base64");
  return `-----BEGIN CERTIFICATE-----\n${der.toString("base64").replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`;
}

/**
 * Clients of every service on the handshake's address: mTLS with `client` pinned to the server's
 * certificate, or plain.
 *
 * @example
 * ```ts
 * const c = _faceClients(face, tofuCert);
 * await _unary(c.controller, "Shutdown");
 * ```
 */
export function _faceClients(face: StartedFace, client?: ServerCertificate): Record<string, any> {
  const address = face.fields[3]!;
  const creds = client
    ? grpc.credentials.createSsl(Buffer.from(_pemOf(face.fields[5]!)), Buffer.from(client.keyPem), Buffer.from(client.certPem))
    : grpc.credentials.createInsecure();
  const options = { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost" };
  return {
    provider: new loaded.tfplugin6.Provider(address, creds, options),
    controller: new loaded.plugin.GRPCController(address, creds, options),
    stdio: new loaded.plugin.GRPCStdio(address, creds, options),
    broker: new loaded.plugin.GRPCBroker(address, creds, options),
    health: new loaded.grpc.health.v1.Health(address, creds, options),
  };
}

/**
 * One unary call of a loaded client, as a promise.
 *
 * @example
 * ```ts
 * const schema = await _unary(c.provider, "GetProviderSchema");
 * ```
 */
export function _unary(client: any, method: string, request: unknown = {}): Promise<any> {
  return new Promise((resolve, reject) => client[method](request, (err: unknown, res: unknown) => (err ? reject(err) : resolve(res))));
}

/** What `npm run package:tofu` wrote for one platform, with the release files beside. */
export interface TofuRelease {
  version: string;
  zip: string;
  sums: string;
  manifest: string;
  mirror: string;
  stdout: string;
  stderr: string;
}

/**
 * The OpenTofu provider as a user gets it: `npm run package:tofu`'s linux-amd64 zip, SHA256SUMS, manifest
 * and packed mirror, written into `outDir` (`env` for the script: e.g. its own XDG_CACHE_HOME).
 *
 * @example
 * ```ts
 * const { zip, mirror } = await _tofuRelease(path.join(dir, "artifacts"));
 * ```
 */
export async function _tofuRelease(outDir: string, env: NodeJS.ProcessEnv = process.env): Promise<TofuRelease> {
  const root = _repoRoot();
  const version = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
  const r = await promisify(execFile)(process.execPath, [path.join(root, "scripts", "package-tofu.mjs"), "--platform", "linux-amd64", "--out", outDir], {
    cwd: root,
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
  const zip = path.join(outDir, `terraform-provider-dnsaccount_${version}_linux_amd64.zip`);
  assert.ok(existsSync(zip), `package:tofu wrote the linux-amd64 zip:\n${r.stdout}${r.stderr}`);
  return {
    version,
    zip,
    sums: path.join(outDir, `terraform-provider-dnsaccount_${version}_SHA256SUMS`),
    manifest: path.join(outDir, `terraform-provider-dnsaccount_${version}_manifest.json`),
    mirror: path.join(outDir, "tofu-mirror"),
    stdout: r.stdout,
    stderr: r.stderr,
  };
}

let shared: Promise<TofuRelease> | undefined;

/**
 * {@link _tofuRelease} made once per test process and shared by every suite of it (the tofu tests that
 * install the provider from its filesystem mirror, as users do): written into a run-wide temporary folder,
 * removed after the last suite. A failed build fails every caller with the same error, and is not retried.
 *
 * @example
 * ```ts
 * const { mirror, version } = await _sharedTofuRelease();
 * ```
 */
export function _sharedTofuRelease(): Promise<TofuRelease> {
  shared ??= (async () => {
    const started = Date.now();
    const release = await _tofuRelease(path.join(_runTempDir("dns-account-tofu-release-"), "artifacts"));
    console.log(`      tofu release (package:tofu, linux-amd64) in ${((Date.now() - started) / 1000).toFixed(1)} s, shared by this run`);
    return release;
  })();
  return shared;
}
