import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import tls from "node:tls";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { hclogTimestamp } from "../../../provider/tofu/log";
import { LOADER_OPTIONS, PROTOCOL } from "../../../provider/tofu/protocol";
import { mintServerCertificate, type ServerCertificate } from "../../../provider/tofu/tls";
import { _useTempDirs } from "../../support/temp";
import { _faceClients, _pemOf, _pluginEnv, _startFace, _unary, type StartedFace } from "../../support/tofu-face";

/* eslint-disable @typescript-eslint/no-explicit-any -- the loaded gRPC clients are untyped */

const BIN = path.join(__dirname, "..", "..", "..", "provider", "tofu", "bin.js");
const loaded = grpc.loadPackageDefinition(protoLoader.fromJSON(PROTOCOL, LOADER_OPTIONS)) as any;

/** The status a server stream ends with. */
function streamStatus(stream: grpc.ClientReadableStream<unknown> | grpc.ClientDuplexStream<unknown, unknown>): Promise<grpc.ServiceError> {
  return new Promise((resolve) => {
    stream.on("data", () => undefined);
    stream.on("error", (err: grpc.ServiceError) => resolve(err));
  });
}

/** Resolves once `text()` matches `pattern` (checked whenever the child writes to stderr), or rejects if the child exits first. */
function stderrShows(face: StartedFace, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (pattern.test(face.stderr())) {
        face.child.stderr!.off("data", check);
        resolve();
      }
    };
    face.child.stderr!.on("data", check);
    void face.exited.then((code) => reject(new Error(`the provider exited (${code}) before stderr showed ${pattern}; stderr:\n${face.stderr()}`)));
    check();
  });
}

/**
 * The OpenTofu/Terraform face's protocol layer (issue 34, first step), driven as go-plugin's client
 * drives it: the executable started as a child with the magic cookie and tofu's client certificate, its
 * handshake line parsed, gRPC over mTLS pinned to the certificate the line carries. No real tofu here.
 */
describe("the OpenTofu face: go-plugin's handshake, AutoMTLS and the tfplugin6 service", function () {
  this.timeout(60_000);
  const tmp = _useTempDirs();
  const started: StartedFace[] = [];
  let tofuCert: ServerCertificate;
  let strangerCert: ServerCertificate;

  before(async () => {
    // go-plugin's client mints P-521 certificates (its mtls.go): tofu's here is one too.
    [tofuCert, strangerCert] = await Promise.all([mintServerCertificate(new Date(), "P-521"), mintServerCertificate(new Date(), "P-521")]);
  });

  afterEach(async () => {
    for (const face of started.splice(0)) {
      if (face.child.exitCode === null && face.child.signalCode === null) {
        face.child.kill("SIGKILL");
        await face.exited;
      }
    }
  });

  async function face(env: NodeJS.ProcessEnv, bin?: string): Promise<StartedFace> {
    const f = await _startFace(env, [process.execPath, bin ?? BIN]);
    started.push(f);
    return f;
  }

  it("without the magic cookie it says on stderr that it is a plugin, prints nothing on stdout, and exits 1", async () => {
    const f = await face(_pluginEnv({ TF_PLUGIN_MAGIC_COOKIE: "" }));
    assert.equal(await f.exited, 1);
    assert.equal(f.stdout(), "");
    assert.match(f.stderr(), /is a plugin of OpenTofu and Terraform, not a program to run by hand/);
    assert.match(f.stderr(), /required_providers/);
  });

  it("a client offering no protocol 6 is refused, PLUGIN_PROTOCOL_VERSIONS named", async () => {
    const f = await face(_pluginEnv({ PLUGIN_PROTOCOL_VERSIONS: "4,5" }));
    assert.equal(await f.exited, 1);
    assert.equal(f.stdout(), "");
    assert.match(f.stderr(), /protocol 6 only; the client offered PLUGIN_PROTOCOL_VERSIONS=4,5/);
  });

  it("AutoMTLS: the handshake line, our self-signed localhost certificate, GetProviderSchema and the other calls over mTLS; SIGINT ignored; Shutdown ends the process", async () => {
    const f = await face(_pluginEnv({ PLUGIN_CLIENT_CERT: tofuCert.certPem }));
    assert.equal(f.fields.length, 6, `handshake line: ${f.fields.join("|")}; stderr:\n${f.stderr()}`);
    const [core, app, network, address, protocol, certField] = f.fields as [string, string, string, string, string, string];
    assert.deepEqual([core, app, network, protocol], ["1", "6", "tcp", "grpc"]);
    assert.match(address, /^127\.0\.0\.1:\d+$/);
    assert.doesNotMatch(certField, /=/, "base64 without padding");
    const cert = new X509Certificate(Buffer.from(certField, "base64"));
    assert.equal(cert.subjectAltName, "DNS:localhost");
    assert.ok(cert.verify(cert.publicKey), "self-signed");
    assert.ok(cert.ca, "a CA for itself, as go-plugin's certificates are");
    assert.ok(cert.checkHost("localhost"));
    assert.equal(cert.publicKey.asymmetricKeyType, "ec");

    const c = _faceClients(f, tofuCert);
    const schema = await _unary(c.provider, "GetProviderSchema");
    assert.deepEqual(schema.diagnostics, []);
    const names = ["dnsaccount_dedicated_ipv4", "dnsaccount_device", "dnsaccount_dns_server", "dnsaccount_token"];
    const dataNames = ["dnsaccount_account_limits", "dnsaccount_filter_lists", "dnsaccount_parental_control_categories", "dnsaccount_web_services"];
    assert.ok(schema.provider.block.attributes.some((a: { name: string }) => a.name === "api_key"));
    assert.deepEqual(Object.keys(schema.resource_schemas).sort(), names);
    assert.deepEqual(Object.keys(schema.data_source_schemas).sort(), dataNames);
    const metadata = await _unary(c.provider, "GetMetadata");
    assert.deepEqual(metadata.resources.map((r: { type_name: string }) => r.type_name).sort(), names);
    assert.deepEqual(metadata.data_sources.map((r: { type_name: string }) => r.type_name).sort(), dataNames);
    assert.deepEqual(metadata.diagnostics, []);
    assert.deepEqual((await _unary(c.provider, "GetResourceIdentitySchemas")).identity_schemas, {});
    assert.deepEqual((await _unary(c.provider, "ValidateProviderConfig", { config: { msgpack: Buffer.from([0x80]) } })).diagnostics, []);
    assert.deepEqual((await _unary(c.provider, "ConfigureProvider", { terraform_version: "1.12.6", config: { msgpack: Buffer.from([0x80]) } })).diagnostics, []);
    const read = await _unary(c.provider, "ReadResource", { type_name: "dnsaccount_nothing" });
    assert.equal(read.diagnostics[0].severity, "ERROR");
    assert.match(read.diagnostics[0].detail, /no resource type "dnsaccount_nothing"/);
    const data = await _unary(c.provider, "ReadDataSource", { type_name: "dnsaccount_nowhere" });
    assert.match(data.diagnostics[0].detail, /no data source type "dnsaccount_nowhere"/);
    assert.equal((await _unary(c.provider, "StopProvider")).Error, "");
    assert.equal((await _unary(c.health, "Check", { service: "plugin" })).status, "SERVING");
    assert.equal((await streamStatus(c.stdio.StreamStdio({}))).code, grpc.status.UNIMPLEMENTED);
    const broker = c.broker.StartStream();
    assert.equal((await streamStatus(broker)).code, grpc.status.UNIMPLEMENTED);

    // SIGINT is tofu's user's Ctrl-C, which reaches the whole process group: the provider stays up.
    f.child.kill("SIGINT");
    await stderrShows(f, /SIGINT ignored/);
    assert.deepEqual((await _unary(c.provider, "GetProviderSchema")).diagnostics, []);

    await _unary(c.controller, "Shutdown");
    assert.equal(await f.exited, 0);
    assert.equal(f.stdout(), `${f.fields.join("|")}\n`, "the handshake line and nothing else on stdout");
    const lines = f.stderr().split("\n").filter((l) => l.startsWith("{"));
    assert.ok(lines.length >= 2, f.stderr());
    for (const line of lines) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      assert.match(String(entry["@timestamp"]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/, line);
      assert.ok(entry["@level"] && entry["@message"], line);
    }
    for (const client of Object.values(c)) client.close();
  });

  it("a client certificate other than PLUGIN_CLIENT_CERT's, or none, is refused; tofu's is then accepted", async () => {
    const f = await face(_pluginEnv({ PLUGIN_CLIENT_CERT: tofuCert.certPem }));
    assert.equal(f.fields.length, 6, f.stderr());
    const stranger = _faceClients(f, strangerCert);
    await assert.rejects(_unary(stranger.provider, "GetProviderSchema"), (err: grpc.ServiceError) => err.code === grpc.status.UNAVAILABLE);
    const anonymous = new loaded.tfplugin6.Provider(f.fields[3], grpc.credentials.createSsl(Buffer.from(_pemOf(f.fields[5]!))), {
      "grpc.ssl_target_name_override": "localhost",
    });
    await assert.rejects(_unary(anonymous, "GetProviderSchema"), (err: grpc.ServiceError) => err.code === grpc.status.UNAVAILABLE);
    const tofu = _faceClients(f, tofuCert);
    assert.deepEqual((await _unary(tofu.provider, "GetProviderSchema")).diagnostics, []);
    for (const client of [...Object.values(stranger), ...Object.values(tofu), anonymous]) client.close();
  });

  it("TF_DISABLE_PLUGIN_TLS: plain gRPC, an empty certificate field, and Shutdown still ends the process", async () => {
    const f = await face(_pluginEnv({ TF_DISABLE_PLUGIN_TLS: "1", PLUGIN_CLIENT_CERT: tofuCert.certPem }));
    assert.equal(f.fields.length, 6, f.stderr());
    assert.equal(f.fields[5], "");
    const c = _faceClients(f);
    assert.deepEqual((await _unary(c.provider, "GetProviderSchema")).diagnostics, []);
    await _unary(c.controller, "Shutdown");
    assert.equal(await f.exited, 0);
    for (const client of Object.values(c)) client.close();
  });

  it("NODE_OPTIONS from the user's environment: a preloaded module's stdout writes and console.log go to stderr, and TLS stays ≥ 1.2 under --tls-min-v1.0", async () => {
    const preload = path.join(tmp("tofu-preload-"), "noisy.js");
    writeFileSync(
      preload,
      'setImmediate(() => { console.log("PRELOAD-CONSOLE-NOISE"); process.stdout.write("PRELOAD-RAW-NOISE\\n"); });\n' +
        'setInterval(() => process.stdout.write("PRELOAD-LATER-NOISE\\n"), 5).unref();\n',
    );
    const f = await face(_pluginEnv({ PLUGIN_CLIENT_CERT: tofuCert.certPem, NODE_OPTIONS: `--require ${preload} --tls-min-v1.0` }));
    assert.equal(f.fields[0], "1", `the first stdout line is the handshake: ${f.stdout()}`);
    assert.equal(f.fields.length, 6);
    // Each in its own turn of the event loop (the preload's timer may come before or after its setImmediate).
    await stderrShows(f, /PRELOAD-LATER-NOISE/);
    await stderrShows(f, /"@message":"PRELOAD-CONSOLE-NOISE"/);
    await stderrShows(f, /PRELOAD-RAW-NOISE/);

    const [host, port] = f.fields[3]!.split(":") as [string, string];
    const attempt = (maxVersion: tls.SecureVersion) =>
      new Promise<string>((resolve, reject) => {
        const socket = tls.connect({
          host,
          port: Number(port),
          servername: "localhost",
          ca: _pemOf(f.fields[5]!),
          cert: tofuCert.certPem,
          key: tofuCert.keyPem,
          minVersion: "TLSv1",
          maxVersion,
          ALPNProtocols: ["h2"],
          ciphers: "DEFAULT:@SECLEVEL=0",
        });
        socket.once("secureConnect", () => {
          const version = socket.getProtocol() ?? "";
          socket.destroy();
          resolve(version);
        });
        socket.once("error", reject);
      });
    assert.equal(await attempt("TLSv1.2"), "TLSv1.2");
    await assert.rejects(attempt("TLSv1.1"), /protocol version|unsupported protocol|wrong version|no protocols available/i);

    const c = _faceClients(f, tofuCert);
    assert.deepEqual((await _unary(c.provider, "GetProviderSchema")).diagnostics, []);
    await _unary(c.controller, "Shutdown");
    assert.equal(await f.exited, 0);
    assert.equal(f.stdout(), `${f.fields.join("|")}\n`, "nothing but the handshake line on stdout");
    for (const client of Object.values(c)) client.close();
  });

  it("the bin and its bundle run alone: copied to a folder with no node_modules anywhere above, they shake hands and serve over mTLS; the code cache the bin writes for itself is one the next start's Node accepts (V8's flags change only after it is written)", async () => {
    const alone = tmp("tofu-alone-");
    for (const file of ["bin.js", "tofu.bundle.js"]) copyFileSync(path.join(path.dirname(BIN), file), path.join(alone, file));
    const f = await face(_pluginEnv({ PLUGIN_CLIENT_CERT: tofuCert.certPem }), path.join(alone, "bin.js"));
    assert.equal(f.fields.length, 6, f.stderr());
    const c = _faceClients(f, tofuCert);
    assert.deepEqual((await _unary(c.provider, "GetProviderSchema")).diagnostics, []);
    await _unary(c.controller, "Shutdown");
    assert.equal(await f.exited, 0);
    for (const client of Object.values(c)) client.close();
    const bundle = path.join(alone, "tofu.bundle.js");
    assert.ok(existsSync(`${bundle}.cache`), "the bin wrote a code cache beside a bundle that had none");
    // A fresh node, with no flag, compiles the bundle with that cache as the bin's next start does.
    const loader = path.join(__dirname, "..", "..", "..", "provider", "shared", "load-bundle.js");
    const probe = `const { compileBundle } = require(${JSON.stringify(loader)}); const fs = require("node:fs");
      const s = compileBundle("x", fs.readFileSync(${JSON.stringify(bundle)}, "utf8"), fs.readFileSync(${JSON.stringify(`${bundle}.cache`)}));
      process.stdout.write(String(s.cachedDataRejected));`;
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    assert.equal(execFileSync(process.execPath, ["-e", probe], { env, encoding: "utf8" }), "false", "a fresh node rejected the cache the bin wrote");
    assert.ok(readFileSync(`${bundle}.cache`).length > 0);
  });

  it("hclog's timestamp has exactly six fractional digits, in UTC", () => {
    assert.equal(hclogTimestamp(Date.UTC(2026, 11, 6, 17, 4, 5, 123) + 0.456), "2026-12-06T17:04:05.123456Z");
    assert.equal(hclogTimestamp(Date.UTC(2026, 0, 1)), "2026-01-01T00:00:00.000000Z");
  });
});
