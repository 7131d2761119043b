import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { checkHandshake, handshakeLine, HandshakeError, MAGIC_COOKIE_VALUE } from "../../../provider/tofu/handshake";
import { tlsWanted } from "../../../provider/tofu/main";
import { newFace } from "../../../provider/tofu/server";
import { clientCertificate, mintServerCertificate, TlsSetupError } from "../../../provider/tofu/tls";

const cookie = { TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE };

/** The OpenTofu face's pieces, in process: the handshake's choices, StopProvider's signal, the certificates. */
describe("the OpenTofu face's pieces: handshake choices, StopProvider's abort, certificates", () => {
  it("protocol 6 is chosen from PLUGIN_PROTOCOL_VERSIONS, or assumed when the client sends none; anything else is refused with a stable code", () => {
    assert.equal(checkHandshake({ ...cookie }), 6);
    assert.equal(checkHandshake({ ...cookie, PLUGIN_PROTOCOL_VERSIONS: "5,6" }), 6);
    assert.equal(checkHandshake({ ...cookie, PLUGIN_PROTOCOL_VERSIONS: " 6 " }), 6);
    assert.throws(() => checkHandshake({ ...cookie, PLUGIN_PROTOCOL_VERSIONS: "5" }), (e: HandshakeError) => e.code === "protocol_unsupported");
    assert.throws(() => checkHandshake({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE.slice(1) }), (e: HandshakeError) => e.code === "not_a_plugin_start");
    assert.throws(() => checkHandshake({}), (e: HandshakeError) => e.code === "not_a_plugin_start");
    assert.equal(handshakeLine(4242, "AAA"), "1|6|tcp|127.0.0.1:4242|grpc|AAA");
    assert.equal(handshakeLine(4242), "1|6|tcp|127.0.0.1:4242|grpc|");
  });

  it("AutoMTLS is on when tofu sent its certificate, unless TF_DISABLE_PLUGIN_TLS is set", () => {
    assert.equal(tlsWanted({ PLUGIN_CLIENT_CERT: "pem" }), true);
    assert.equal(tlsWanted({ PLUGIN_CLIENT_CERT: "pem", TF_DISABLE_PLUGIN_TLS: "1" }), false);
    assert.equal(tlsWanted({}), false);
  });

  it("StopProvider aborts the signal the calls in flight took, and later calls take a fresh one", () => {
    const face = newFace();
    const inFlight = face.signal();
    let aborted: unknown;
    inFlight.addEventListener("abort", () => (aborted = inFlight.reason));
    face.stop("tofu stopped the provider (StopProvider)");
    assert.ok(inFlight.aborted);
    assert.match(String(aborted), /StopProvider/);
    assert.equal(face.signal().aborted, false);
    assert.notEqual(face.signal(), inFlight);
  });

  it("the server's certificate: self-signed, DNS:localhost, valid now, base64 DER without padding; PLUGIN_CLIENT_CERT must be a certificate", async () => {
    const now = new Date();
    const own = await mintServerCertificate(now);
    const cert = new X509Certificate(own.certPem);
    assert.equal(cert.raw.toString("base64").replace(/=+$/, ""), own.derBase64);
    assert.equal(cert.subjectAltName, "DNS:localhost");
    assert.ok(new Date(cert.validFrom) <= now && now < new Date(cert.validTo));
    assert.ok(cert.verify(cert.publicKey));
    assert.equal(cert.publicKey.asymmetricKeyDetails?.namedCurve, "prime256v1");
    assert.equal(clientCertificate(own.certPem), own.certPem);
    assert.throws(() => clientCertificate(undefined), (e: TlsSetupError) => e.code === "plugin_client_cert_invalid" && /PLUGIN_CLIENT_CERT/.test(e.message));
    assert.throws(() => clientCertificate("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n"), /PLUGIN_CLIENT_CERT is not a certificate/);
  });

  it("the two faces share no code: the Pulumi plugin's bundle holds nothing of tfplugin6, the OpenTofu face's nothing of Pulumi's protocol", () => {
    const dist = path.join(__dirname, "..", "..", "..", "provider");
    const plugin = readFileSync(path.join(dist, "plugin", "plugin.bundle.js"), "utf8") + readFileSync(path.join(dist, "plugin", "bin.js"), "utf8");
    const tofu = readFileSync(path.join(dist, "tofu", "tofu.bundle.js"), "utf8") + readFileSync(path.join(dist, "tofu", "bin.js"), "utf8");
    assert.ok(tofu.includes("tfplugin6") && plugin.includes("pulumirpc"), "each bundle holds its own protocol");
    assert.ok(!plugin.includes("tfplugin6") && !plugin.includes("TF_PLUGIN_MAGIC_COOKIE"), "the Pulumi plugin loads nothing of the OpenTofu face");
    assert.ok(!tofu.includes("pulumirpc"), "the OpenTofu face loads nothing of the Pulumi plugin");
  });
});
