import assert from "node:assert/strict";
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { _repoRoot } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _engineMissing, type PulumiProject, _failWithout, _stackProject } from "../support/pulumi-cli";
import type { WireRecord } from "../support/engine/wire-recorder";

const API_KEY = "key-ENGINE-WIRE-5b0e93d2";

/**
 * What the real engine (3.248.0) sends the plugin as Create's `properties`, against what the plugin
 * answered Check with, byte for byte: the question is whether the plugin could reuse Check's decoded
 * inputs in Create by recognising the bytes (issue 25, "no second full Struct decode of the same inputs
 * between Check and Create where the engine lets us").
 *
 * The plugin runs behind a pass-through (test/support/engine/wire-recorder.ts) that the engine starts as
 * `pulumi-resource-dns-account` from PATH, so every command starts and stops it as it would the plugin,
 * and the raw request and answer Buffers of every Check and Create are recorded per process. What the
 * engine does, pinned here (the test fails when it changes):
 * - One `pulumi up --skip-preview` starts one plugin process for the resources, which gets Check and
 *   then Create for each resource. `pulumi up` with its preview starts two: the preview's (Check, then
 *   Create with `preview: true`) and the update's (Check again, then Create). So Check and the Create
 *   that follows it always reach the same process. Each command also starts one more plugin process:
 *   `pulumi-language-yaml` starts it itself to read the schema (Handshake, GetPluginInfo, GetSchema and
 *   nothing else), so the engine's PULUMI_DEBUG_GRPC log never shows that GetSchema.
 * - Create's `properties` equal Check's answered `inputs` in value, the unknown sentinel of a preview
 *   included.
 * - Not in bytes: the engine decodes Check's answer into its property map and marshals it again for
 *   Create with Go's protobuf, whose marshal of a map (a Struct's `fields`) is not deterministic, so the
 *   entries of every Struct come in a random order, while google-protobuf (the plugin's answer) writes
 *   them sorted by key. With the entries of every Struct sorted, Create's bytes are exactly Check's
 *   answer's; as sent, they differ at random. Measured on 2026-11-28 (this test and a variant of it):
 *   the server here (twelve settings) 24 of 24 Creates reordered; a server with three settings 7 of 12;
 *   a Device (four keys, two settings) 30 of 78, its preview Create 2 of 9; a server with only `name`
 *   0 of 12. So bytes cannot key a cache of Check's decoded value: it would miss at random, and
 *   recognising the value whatever the order is a decode of its own.
 *
 * Why a pass-through started as the plugin, not `PULUMI_DEBUG_PROVIDERS=dns-account:<port>`: with that
 * variable the engine dials a provider already running (sdk/go/common/resource/plugin/provider_plugin.go,
 * GetProviderAttachPort), sends Handshake without its directories and then Attach, and every command
 * shares that one process, which hides how many processes each command starts. The marshal of Create's
 * properties is the same code either way.
 */
describe("engine: Check's answer and Create's properties on the wire", function () {
  this.timeout(600_000);
  let emu: Emulator;
  let project: PulumiProject | undefined;
  let records: string;

  before(async function () {
    _failWithout(_engineMissing("yaml"));
    emu = await startEmulator();
    emu.addApiKey("user@example.com", API_KEY);
    const installed = await _installedProgram();
    project = await _stackProject("dns-account-engine-wire-", {
      program: PROGRAM,
      config: { "dns-account:baseUrl": emu.url, "dns-account:apiKey": { secret: API_KEY } },
    });
    // The pass-through, named as the plugin, first on PATH; it starts the installed plugin behind it.
    const root = path.dirname(project.dir);
    const bin = path.join(root, "wire-bin");
    records = path.join(root, "wire-records");
    mkdirSync(bin);
    mkdirSync(records);
    const recorder = path.join(_repoRoot(), "dist", "test", "support", "engine", "wire-recorder.js");
    const plugin = path.join(installed, "node_modules", ".bin", "pulumi-resource-dns-account");
    const wrapper = path.join(bin, "pulumi-resource-dns-account");
    writeFileSync(wrapper, `#!/bin/sh\nexec ${sh(process.execPath)} ${sh(recorder)} ${sh(plugin)} "$@"\n`);
    chmodSync(wrapper, 0o755);
    project.env.PATH = `${bin}${path.delimiter}${project.env.PATH}`;
    project.env.WIRE_RECORD_DIR = records;
  });

  after(async () => {
    await emu?.close();
    project?.remove();
  });

  it("up --skip-preview: one process gets Check then Create; Create's properties are Check's answer in value, re-marshaled in bytes", async () => {
    await project!.pulumi("up", "--yes", "--skip-preview");
    const { schema, serving, all } = roles(takeRecords(records));
    console.log(`      up --skip-preview, the plugin processes' calls: ${summary(all)}`);
    assert.equal(schema.length, 1, `one more process answers only GetSchema: ${summary(all)}`);
    assert.equal(serving.length, 1, `one plugin process gets the Checks and Creates: ${summary(all)}`);
    const [proc] = serving;
    assert.equal(count(proc!, "Check"), 2, summary(all));
    assert.equal(count(proc!, "Create"), 2, summary(all));
    const pairs = pairUp(proc!);
    assert.deepEqual(pairs.map((p) => p.type).sort(), ["dns-account:index:Device", "dns-account:index:DnsServer"]);
    for (const pair of pairs) assert.equal(pair.preview, false);
    checkPairs(pairs, "up --skip-preview");
    await project!.pulumi("destroy", "--yes", "--skip-preview");
    takeRecords(records);
  });

  it("up with its preview: two processes, each gets Check then Create (a preview's Create in the first)", async () => {
    await project!.pulumi("up", "--yes");
    const { schema, serving, all } = roles(takeRecords(records));
    console.log(`      up, the plugin processes' calls: ${summary(all)}`);
    assert.equal(schema.length, 2, `the preview and the update each start one process that answers only GetSchema: ${summary(all)}`);
    assert.equal(serving.length, 2, `the preview and the update each start a plugin process for the resources: ${summary(all)}`);
    // The preview's process is the one whose Creates are previews.
    const preview = serving.find((p) => pairUp(p).every((c) => c.preview));
    const update = serving.find((p) => p !== preview);
    assert.ok(preview && update, summary(all));
    for (const proc of [preview, update]) {
      assert.equal(count(proc, "Check"), 2, summary(all));
      assert.equal(count(proc, "Create"), 2, summary(all));
    }
    const previewPairs = pairUp(preview);
    const updatePairs = pairUp(update);
    assert.ok(updatePairs.every((p) => !p.preview), "the other process creates");
    // In the preview the server's id is not known yet: the device's Check and Create carry the sentinel.
    const device = previewPairs.find((p) => p.type === "dns-account:index:Device")!;
    assert.equal(device.created.dnsServerId, "04da6b54-80e4-46f7-96ec-b56ff0331ba9");
    checkPairs([...previewPairs, ...updatePairs], "up");
    await project!.pulumi("destroy", "--yes", "--skip-preview");
    takeRecords(records);
  });
});

/** A server with twelve settings (a Struct of twelve keys, some nested), and a device on it. */
const PROGRAM = `name: dns-account-engine-wire
runtime: yaml
resources:
  home:
    type: dns-account:index:DnsServer
    properties:
      name: Home
      settings:
        protectionEnabled: true
        ipLogEnabled: false
        blockTtlSeconds: 60
        blockPrivateRelay: true
        blockFirefoxCanary: true
        blockChromePrefetch: false
        autoConnectDevicesEnabled: false
        blockingMode:
          mode: NXDOMAIN
        userRules:
          enabled: true
          rules:
            - "||ads.example^"
            - "@@||bank.example^$important"
        safeBrowsing:
          enabled: true
          blockNewlyRegisteredDomains: true
        blockedServices:
          - tiktok
          - roblox
        parentalControl:
          enabled: true
          safeSearch: true
          schedule:
            monday:
              from: "07:00"
              to: "20:00"
  laptop:
    type: dns-account:index:Device
    properties:
      name: Laptop
      deviceType: MAC
      dnsServerId: \${home.serverId}
      settings:
        protectionEnabled: true
        detectDohAuthOnly: false
`;

/** A word quoted for sh. */
const sh = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

interface Proc {
  pid: number;
  calls: WireRecord[];
}

/** The records written so far, one entry per plugin process, calls in order; the files are removed. */
function takeRecords(dir: string): Proc[] {
  const procs: Proc[] = [];
  for (const file of readdirSync(dir)) {
    const text = readFileSync(path.join(dir, file), "utf8");
    const calls = text
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as WireRecord);
    procs.push({ pid: calls[0]!.pid, calls });
    rmSync(path.join(dir, file));
  }
  return procs;
}

/**
 * The processes of one command by role: those the YAML language host starts to read the schema
 * (Handshake, GetPluginInfo and GetSchema, nothing else) and those the engine starts, which get Check;
 * any other kind fails the test.
 */
function roles(all: Proc[]): { schema: Proc[]; serving: Proc[]; all: Proc[] } {
  const schemaOnly = new Set(["Handshake", "GetPluginInfo", "GetSchema"]);
  const schema = all.filter((p) => p.calls.some((c) => c.method === "GetSchema") && p.calls.every((c) => schemaOnly.has(c.method)));
  const serving = all.filter((p) => p.calls.some((c) => c.method === "Check"));
  assert.equal(schema.length + serving.length, all.length, `every plugin process answers the schema or the resources: ${summary(all)}`);
  // Who starts them (Linux names the parent; the name is cut to 15 characters): the language host, the engine.
  for (const p of schema) assert.match(p.calls[0]!.parent, /^pulumi-language/, summary(all));
  for (const p of serving) assert.equal(p.calls[0]!.parent, "pulumi", summary(all));
  return { schema, serving, all };
}

const count = (proc: Proc, method: string): number => proc.calls.filter((c) => c.method === method).length;
/** Each process's calls in order, after the name of the process that started it. */
const summary = (procs: Proc[]): string => procs.map((p) => `${p.calls[0]?.parent || "?"}> ${p.calls.map((c) => c.method).join(",")}`).join(" | ");

/* eslint-disable @typescript-eslint/no-explicit-any -- the generated protobuf classes are untyped here */
const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const messages = pulumiRequire("./proto/provider_pb.js");

interface Pair {
  urn: string;
  type: string;
  preview: boolean;
  /** Check's answered inputs, decoded. */
  checked: Record<string, unknown>;
  /** Create's properties, decoded. */
  created: Record<string, unknown>;
  /** The raw bytes of CheckResponse.inputs (field 1) and CreateRequest.properties (field 2). */
  checkedBytes: Buffer;
  createdBytes: Buffer;
}

/** Each Create of the process with the last Check of the same URN before it. */
function pairUp(proc: Proc): Pair[] {
  const lastCheck = new Map<string, WireRecord>();
  const pairs: Pair[] = [];
  for (const call of proc.calls) {
    if (call.method === "Check" && !call.error) {
      lastCheck.set(messages.CheckRequest.deserializeBinary(bytes(call.request)).getUrn(), call);
    } else if (call.method === "Create") {
      const create = messages.CreateRequest.deserializeBinary(bytes(call.request));
      const check = lastCheck.get(create.getUrn());
      assert.ok(check, `a Check of ${create.getUrn()} came before its Create in the same process`);
      const answer = messages.CheckResponse.deserializeBinary(bytes(check.response));
      pairs.push({
        urn: create.getUrn(),
        type: create.getType(),
        preview: create.getPreview(),
        checked: answer.getInputs().toJavaScript(),
        created: create.getProperties().toJavaScript(),
        checkedBytes: field(bytes(check.response), 1),
        createdBytes: field(bytes(call.request), 2),
      });
    }
  }
  return pairs;
}

/**
 * The facts every pair shows: equal values; Create's bytes are Check's answer's with the entries of every
 * Struct reordered (sorted, they are the same bytes); and the order is the engine's, not the plugin's: the
 * server's settings (twelve keys) come in another order than the plugin wrote.
 */
function checkPairs(pairs: Pair[], command: string): void {
  let same = 0;
  for (const p of pairs) {
    assert.deepEqual(p.created, p.checked, `${p.urn}: Create's properties are Check's answer in value`);
    assert.ok(canonicalStruct(p.checkedBytes).equals(p.checkedBytes), `${p.urn}: the plugin's answer has every Struct's keys sorted`);
    assert.ok(canonicalStruct(p.createdBytes).equals(p.checkedBytes), `${p.urn}: Create's properties are Check's answer's bytes, entries reordered`);
    if (p.createdBytes.equals(p.checkedBytes)) same++;
  }
  const server = pairs.filter((p) => p.type === "dns-account:index:DnsServer");
  assert.ok(
    server.some((p) => !p.createdBytes.equals(p.checkedBytes)),
    "the engine re-marshals Check's answer for Create in its own (random) order: the server's twelve settings did not come back as the plugin wrote them",
  );
  const each = pairs.map((p) => `${p.type.split(":").pop()}${p.preview ? " (preview)" : ""} ${p.createdBytes.length} B ${p.createdBytes.equals(p.checkedBytes) ? "same" : "reordered"}`);
  console.log(`      ${command}: ${same} of ${pairs.length} Creates carried Check's answer byte for byte: ${each.join(", ")}`);
}

const bytes = (b64: string | undefined): Buffer => Buffer.from(b64 ?? "", "base64");

// --- a tiny protobuf wire reader: enough to cut a length-delimited field out of a message and to put the
// entries of every google.protobuf.Struct in key order (Struct: 1 = map entry {1 key, 2 Value};
// Value: 1 null, 2 number, 3 string, 4 bool, 5 Struct, 6 ListValue {1 repeated Value}).

interface Field {
  no: number;
  /** The whole field, tag included. */
  raw: Buffer;
  /** A length-delimited field's payload. */
  body?: Buffer;
}

function varint(buf: Buffer, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = buf[at++];
    if (b === undefined) throw new Error("truncated varint");
    value += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return [value, at];
    shift += 7;
  }
}

function encodeVarint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return Buffer.from(out);
}

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  while (at < buf.length) {
    const start = at;
    const [tag, next] = varint(buf, at);
    at = next;
    const no = Math.floor(tag / 8);
    switch (tag & 7) {
      case 0:
        at = varint(buf, at)[1];
        out.push({ no, raw: buf.subarray(start, at) });
        break;
      case 1:
        at += 8;
        out.push({ no, raw: buf.subarray(start, at) });
        break;
      case 5:
        at += 4;
        out.push({ no, raw: buf.subarray(start, at) });
        break;
      case 2: {
        const [len, body] = varint(buf, at);
        at = body + len;
        if (at > buf.length) throw new Error("truncated field");
        out.push({ no, raw: buf.subarray(start, at), body: buf.subarray(body, at) });
        break;
      }
      default:
        throw new Error(`unexpected wire type ${tag & 7}`);
    }
  }
  return out;
}

/** The payload of the length-delimited field `no` of a message (empty when absent). */
function field(message: Buffer, no: number): Buffer {
  return fields(message).find((f) => f.no === no)?.body ?? Buffer.alloc(0);
}

const delimited = (no: number, body: Buffer): Buffer => Buffer.concat([encodeVarint(no * 8 + 2), encodeVarint(body.length), body]);

/** A Struct's bytes with the entries of it and of every Struct inside it in key order. */
function canonicalStruct(struct: Buffer): Buffer {
  const entries = fields(struct).map((f) => {
    assert.equal(f.no, 1, "a Struct holds only field 1");
    const parts = fields(f.body!);
    const key = parts.find((p) => p.no === 1)?.body ?? Buffer.alloc(0);
    const value = parts.find((p) => p.no === 2)?.body;
    const entry = Buffer.concat([delimited(1, key), ...(value ? [delimited(2, canonicalValue(value))] : [])]);
    return { key: key.toString("utf8"), raw: delimited(1, entry) };
  });
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return Buffer.concat(entries.map((e) => e.raw));
}

function canonicalValue(value: Buffer): Buffer {
  return Buffer.concat(
    fields(value).map((f) => {
      if (f.no === 5) return delimited(5, canonicalStruct(f.body!));
      if (f.no === 6) return delimited(6, Buffer.concat(fields(f.body!).map((v) => delimited(1, canonicalValue(v.body!)))));
      return f.raw;
    }),
  );
}
