import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { copyFileSync } from "node:fs";
import path from "node:path";
import { der, mintServerCertificate } from "../../../provider/tofu/tls";
import { _useTempDirs } from "../../support/temp";
import { _pluginEnv, _startFace, type StartedFace } from "../../support/tofu-face";

const BIN = path.join(__dirname, "..", "..", "..", "provider", "tofu", "bin.js");

/**
 * The provider's start (issue 35 §3): the handshake line before the face's bundle is read, and the
 * certificate that line carries minted with node:crypto alone, in the shape go-plugin expects.
 */
describe("the OpenTofu face's start: the handshake line first, its certificate from node:crypto", function () {
  this.timeout(60_000);
  const tmp = _useTempDirs();
  const started: StartedFace[] = [];

  afterEach(async () => {
    for (const face of started.splice(0)) {
      if (face.child.exitCode === null && face.child.signalCode === null) {
        face.child.kill("SIGKILL");
        await face.exited;
      }
    }
  });

  it("the bin prints the handshake line (with its certificate) before it reads the face's bundle: without the bundle beside it, the line comes, then it fails", async () => {
    const alone = tmp("tofu-no-bundle-");
    copyFileSync(BIN, path.join(alone, "bin.js"));
    const tofuCert = mintServerCertificate(new Date(), "P-521");
    const f = await _startFace(_pluginEnv({ PLUGIN_PROTOCOL_VERSIONS: "6", PLUGIN_CLIENT_CERT: tofuCert.certPem }), [process.execPath, path.join(alone, "bin.js")]);
    started.push(f);
    assert.equal(f.fields.length, 6, `handshake line: ${f.stdout()}; stderr:\n${f.stderr()}`);
    assert.match(f.fields[3]!, /^127\.0\.0\.1:\d+$/);
    assert.equal(new X509Certificate(Buffer.from(f.fields[5]!, "base64")).subjectAltName, "DNS:localhost");
    assert.notEqual(await f.exited, 0);
    assert.match(f.stderr(), /tofu\.bundle\.js/);
    assert.equal(f.stdout(), `${f.fields.join("|")}\n`, "nothing but the line on stdout");
  });

  it("a face that cannot load after the line exits 1 saying why, even where NODE_OPTIONS makes an unhandled rejection a warning", async () => {
    const alone = tmp("tofu-no-bundle-warn-");
    copyFileSync(BIN, path.join(alone, "bin.js"));
    const f = await _startFace(_pluginEnv({ PLUGIN_PROTOCOL_VERSIONS: "6", NODE_OPTIONS: "--unhandled-rejections=warn" }), [process.execPath, path.join(alone, "bin.js")]);
    started.push(f);
    assert.equal(f.fields.length, 6, `handshake line: ${f.stdout()}; stderr:\n${f.stderr()}`);
    assert.equal(await f.exited, 1);
    assert.match(f.stderr(), /the provider could not load: .*tofu\.bundle\.js/);
  });

  it("the certificate: X.509 v3, a positive 16-byte serial, a CA for itself, key usage and extended key usage as go-plugin's, signed with the curve's hash; each mint a new key", () => {
    const a = new X509Certificate(mintServerCertificate().certPem);
    const b = new X509Certificate(mintServerCertificate().certPem);
    for (const cert of [a, b]) {
      assert.ok(cert.ca);
      assert.ok(cert.checkIssued(cert), "self-issued");
      assert.ok(cert.verify(cert.publicKey), "self-signed");
      assert.deepEqual(cert.keyUsage, ["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"]);
      assert.match(cert.serialNumber, /^[4-7][0-9A-F]{31}$/);
      assert.equal(cert.subject, "CN=localhost\nO=pulumi-dns-account");
      assert.equal(cert.issuer, cert.subject);
    }
    assert.notEqual(a.publicKey.export({ type: "spki", format: "der" }).toString("hex"), b.publicKey.export({ type: "spki", format: "der" }).toString("hex"));
    assert.notEqual(a.serialNumber, b.serialNumber);
    for (const [curve, name] of [["P-384", "secp384r1"], ["P-521", "secp521r1"]] as const) {
      const cert = new X509Certificate(mintServerCertificate(new Date(), curve).certPem);
      assert.equal(cert.publicKey.asymmetricKeyDetails?.namedCurve, name);
      assert.ok(cert.verify(cert.publicKey), curve);
    }
  });

  it("validity: from a minute before `now` for 30 days, written as UTCTime through 2049 and GeneralizedTime from 2050", () => {
    const now = new Date("2049-12-20T12:00:30Z");
    const cert = new X509Certificate(mintServerCertificate(now).certPem);
    assert.equal(new Date(cert.validFrom).toISOString(), "2049-12-20T11:59:30.000Z");
    assert.equal(new Date(cert.validTo).toISOString(), "2050-01-19T12:00:30.000Z");
    assert.deepEqual([...der.time(new Date("2049-12-31T23:59:59Z"))], [0x17, 13, ...Buffer.from("491231235959Z")]);
    assert.deepEqual([...der.time(new Date("2050-01-01T00:00:00Z"))], [0x18, 15, ...Buffer.from("20500101000000Z")]);
  });

  it("DER: lengths in their shortest form, integers without a leading zero unless the top bit is set, OIDs in base 128", () => {
    assert.deepEqual([...der.tlv(0x04, Buffer.alloc(127))].slice(0, 2), [0x04, 127]);
    assert.deepEqual([...der.tlv(0x04, Buffer.alloc(128))].slice(0, 3), [0x04, 0x81, 128]);
    assert.deepEqual([...der.tlv(0x04, Buffer.alloc(300))].slice(0, 4), [0x04, 0x82, 0x01, 0x2c]);
    assert.deepEqual([...der.unsigned(Buffer.from([0x00, 0x00, 0x7f]))], [0x02, 1, 0x7f]);
    assert.deepEqual([...der.unsigned(Buffer.from([0x80]))], [0x02, 2, 0x00, 0x80]);
    assert.deepEqual([...der.unsigned(Buffer.from([0x00]))], [0x02, 1, 0x00]);
    assert.deepEqual([...der.oid("1.2.840.10045.4.3.2")], [0x06, 8, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]);
  });
});
