import assert from "node:assert/strict";

/* eslint-disable @typescript-eslint/no-explicit-any -- decoded msgpack values are walked freely */
import { decode, encode, ExtData } from "@msgpack/msgpack";
import { type Emulator, startEmulator } from "../../../emulator";
import { planResource, servedKinds, validateResource } from "../../../provider/tofu/resources";
import { attributePath, tofuWords } from "../../../provider/tofu/words";
import { terraformSchema } from "../../../provider/tofu/schema";
import { blockShape, dynamic, fromProgram, readDynamic, TF_UNKNOWN, type TfValue, toProgram } from "../../../provider/tofu/values";
import { UNKNOWN } from "../../../provider/shared/unknown";
import { _closeAll } from "../../support/helpers";

const schema = terraformSchema();
const device = blockShape(schema.resources["dnsaccount_device"]!.block);
const token = blockShape(schema.resources["dnsaccount_token"]!.block);

/**
 * Issue 34: tfplugin6 values (msgpack, or JSON) as the lifecycles take them and back, and the face's words
 * and paths; validation runs the lifecycles' static check only (no call reaches the service).
 */
describe("OpenTofu face: values, words and the offline check", () => {
  it("msgpack in: any extension reads as unknown (0, and 12 with refinements); JSON is accepted too", () => {
    const value = { name: new ExtData(12, Uint8Array.of(0x81, 0x01, 0xc3)), device_type: "MAC", dns_server_id: new ExtData(0, Uint8Array.of(0)) };
    const read = readDynamic({ msgpack: encode(value) }) as Record<string, unknown>;
    assert.equal(read.name, TF_UNKNOWN);
    assert.equal(read.dns_server_id, TF_UNKNOWN);
    assert.equal(read.device_type, "MAC");
    assert.deepEqual(readDynamic({ json: Buffer.from('{"name":"Laptop"}') }), { name: "Laptop" });
    assert.equal(readDynamic({}), null);
  });

  it("msgpack in: the timestamp extension (-1) reads as unknown too, a malformed one as well, not as a date or an error", () => {
    const stamp = encode({ name: new Date(0), device_type: "MAC" });
    const read = readDynamic({ msgpack: stamp }) as Record<string, unknown>;
    assert.equal(read.name, TF_UNKNOWN);
    assert.equal(read.device_type, "MAC");
    const malformed = encode({ name: new ExtData(-1, Uint8Array.of(1, 2, 3)) });
    assert.equal((readDynamic({ msgpack: malformed }) as Record<string, unknown>).name, TF_UNKNOWN);
  });

  it("msgpack out: every attribute of the type present (null when absent), unknown as extension 0", () => {
    const out = decode(dynamic({ name: "Laptop", device_id: TF_UNKNOWN }, device).msgpack, {}) as Record<string, unknown>;
    assert.deepEqual(Object.keys(out).sort(), Object.keys(device.fields).sort());
    assert.equal(out.name, "Laptop");
    assert.deepEqual(out.settings, { detect_doh_auth_only: null, protection_enabled: null }, "a group block is never null: its fields are");
    assert.equal(out.credentials, null, "a single block is null when absent");
    assert.ok(out.device_id instanceof ExtData);
    assert.equal((out.device_id as ExtData).type, 0);
  });

  it("msgpack out: a string is valid UTF-8, a lone surrogate (which a service's JSON can hold) U+FFFD, as the HCL export writes it", () => {
    const out = dynamic({ name: "Lone \ud800 name", device_type: "dev \ud83d", dns_server_id: "pair \ud83d\ude00" }, device);
    const back = decode(out.msgpack) as Record<string, unknown>;
    assert.equal(back.name, "Lone \ufffd name");
    assert.equal(back.device_type, "dev \ufffd");
    assert.equal(back.dns_server_id, "pair \ud83d\ude00", "a pair is one character, kept");
    assert.ok(!Buffer.from(out.msgpack).includes(Buffer.from([0xed, 0xa0, 0x80])), "no encoded surrogate (WTF-8) in the bytes");
  });

  it("one process decodes and encodes every value: each answer keeps its own bytes, and a nested unknown reads as unknown anywhere", () => {
    const first = dynamic({ name: "First", linked_ipv4: ["192.0.2.1"] }, device).msgpack;
    const copy = Buffer.from(first);
    const second = dynamic({ name: "A second device with a longer name", linked_ipv4: ["192.0.2.2", "192.0.2.3"] }, device).msgpack;
    assert.deepEqual(first, copy, "the first answer's bytes are not the encoder's buffer, written over by the next");
    assert.equal((decode(second) as Record<string, unknown>).name, "A second device with a longer name");
    const nested = readDynamic({ msgpack: encode({ linked_ipv4: ["192.0.2.1", new ExtData(0, Uint8Array.of(0))], doh_password_keepers: { at: new ExtData(0, Uint8Array.of(0)), n: 1n } }, { useBigInt64: true }) }) as any;
    assert.deepEqual(nested.linked_ipv4, ["192.0.2.1", TF_UNKNOWN]);
    assert.deepEqual(nested.doh_password_keepers, { at: TF_UNKNOWN, n: 1 });
    assert.equal((readDynamic({ msgpack: first }) as Record<string, unknown>).name, "First", "the decoder reads the next value afresh");
  });

  it("a group block (settings): present with its fields null when absent, at any depth; absent to the lifecycles when it sets nothing", () => {
    const server = blockShape(schema.resources["dnsaccount_dns_server"]!.block);
    const out = decode(dynamic({ name: "Home", settings: null }, server).msgpack, {}) as Record<string, any>;
    assert.equal(out.settings.block_ttl_seconds, null);
    assert.deepEqual(out.settings.blocking_mode, { ipv4: null, ipv6: null, mode: null });
    assert.deepEqual(out.settings.parental_control.schedule.monday, { from: null, to: null });
    assert.deepEqual(toProgram(out as TfValue, server), { name: "Home" }, "a settings block that sets nothing is no settings");
    const some = { ...out, settings: { ...out.settings, user_rules: { enabled: true, rules: null } } };
    assert.deepEqual(toProgram(some as TfValue, server), { name: "Home", settings: { userRules: { enabled: true } } });
  });

  it("numbers tofu sends as text (0.1, an integer past 2^53) are numbers to the lifecycles and echoed as the same text", () => {
    // cty writes a number float64 cannot hold exactly as its text, and compares numbers exactly.
    const big = 2n ** 53n + 1n;
    const read = readDynamic({ msgpack: encode({ renew_before_seconds: "0.1", rotation_period_seconds: big }, { useBigInt64: true }) }) as Record<string, TfValue>;
    assert.equal(read.renew_before_seconds, "0.1");
    assert.equal(read.rotation_period_seconds, big.toString());
    const program = toProgram(read, token) as Record<string, unknown>;
    assert.equal(program.renewBeforeSeconds, 0.1);
    assert.equal(typeof program.rotationPeriodSeconds, "number");
    const out = decode(dynamic(read, token).msgpack, { useBigInt64: true }) as Record<string, unknown>;
    assert.equal(out.renew_before_seconds, "0.1");
    assert.equal(out.rotation_period_seconds, big.toString());
    assert.ok(Number.isNaN((toProgram({ renew_before_seconds: "soon" }, token) as Record<string, unknown>).renewBeforeSeconds));
    assert.equal((decode(dynamic({ renew_before_seconds: 30 }, token).msgpack) as Record<string, unknown>).renew_before_seconds, 30);
  });

  it("to the lifecycles and back: camelCase, nulls left out, unknown as the sentinel, a map's keys as the user wrote them", () => {
    const tf: TfValue = { keepers: { rotation_key: "1", "Mixed-Case": "2" }, rotation_period_seconds: null, refresh_token: TF_UNKNOWN };
    assert.deepEqual(toProgram(tf, token), { keepers: { rotation_key: "1", "Mixed-Case": "2" }, refreshToken: UNKNOWN });
    const back = fromProgram({ keepers: { rotation_key: "1" }, rotationPeriodSeconds: 60, accessToken: UNKNOWN }, token) as Record<string, unknown>;
    assert.deepEqual(back.keepers, { rotation_key: "1" });
    assert.equal(back.rotation_period_seconds, 60);
    assert.equal(back.access_token, TF_UNKNOWN);
    assert.equal(back.refresh_token, null);
    const settings = toProgram({ settings: { protection_enabled: false, detect_doh_auth_only: null } }, device);
    assert.deepEqual(settings, { settings: { protectionEnabled: false } });
  });

  it("failures on attribute paths in snake_case; messages in tofu's words, never Pulumi's", () => {
    assert.deepEqual(attributePath("settings.userRules.rules[3]").steps, [{ attribute_name: "settings" }, { attribute_name: "user_rules" }, { attribute_name: "rules" }, { element_key_int: 3 }]);
    assert.equal(tofuWords("dnsServerId must be a DNS server id"), "dns_server_id must be a DNS server id");
    assert.equal(
      tofuWords("set a fresh code with `pulumi config set --secret dns-account:mfaToken <code>` (or the mfaToken argument)"),
      "set a fresh code with mfa_token in the provider block",
    );
    assert.match(tofuWords("base_url_conflict: dns-account:baseUrl points at x"), /^base_url_conflict: base_url in the provider block points at x$/);
    assert.equal(
      tofuWords("cannot be reached (set the provider's skipCredentialsValidation, dns-account:skipCredentialsValidation, to check them only when they are used)"),
      "cannot be reached (set skip_credentials_validation in the provider block, to check them only when they are used)",
    );
  });

  describe("the static check at validation, the whole check at plan", () => {
    let emu: Emulator;
    before(async () => {
      emu = await startEmulator();
      emu.addApiKey("user@example.com", "key-TOFU-VALUES-6a0e3b");
    });
    after(() => _closeAll(() => emu?.close()));

    it("validation calls no service (a device adopting an id the account lacks passes); the plan's check asks the service and fails on adopt", async () => {
      const kind = servedKinds(schema).resources.get("dnsaccount_device")!;
      const contextFor = () => ({ config: { baseUrl: emu.url, apiKey: "key-TOFU-VALUES-6a0e3b" }, allowInsecureHttp: false, warn: () => undefined });
      const config = fromProgram({ adopt: "dev-missing" }, kind.shape);
      emu.resetStats();
      assert.deepEqual(await validateResource(kind, config, contextFor), []);
      assert.equal(emu.stats.requests, 0, "validation reached the service");
      const bad = await validateResource(kind, fromProgram({ name: "", deviceType: "TOASTER" }, kind.shape), contextFor);
      assert.deepEqual(bad.map((d) => d.attribute?.steps), [[{ attribute_name: "dns_server_id" }], [{ attribute_name: "name" }], [{ attribute_name: "device_type" }]]);
      assert.equal(bad[0]!.detail, "dns_server_id is required (or adopt an existing device)");
      assert.match(bad[2]!.detail, /^device_type must be one of/);
      const plan = await planResource(kind, null, config, config, contextFor);
      assert.ok(emu.stats.requests > 0);
      assert.deepEqual(plan.diagnostics.map((d) => d.attribute?.steps), [[{ attribute_name: "adopt" }]]);
    });
  });
});
