import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { runInThisContext } from "node:vm";
import * as grpc from "@grpc/grpc-js";
import type { Enum, Type } from "protobufjs/light";
import { codec, type Codec } from "../../../provider/tofu/codec";
import { staticCodec, STATIC_RENAMES } from "../../../provider/tofu/codec-static";
import { PROTOCOL } from "../../../provider/tofu/protocol";
import { terraformSchema } from "../../../provider/tofu/schema";
import { encodeSchemaAnswer, parseSchema, providerSchema, schemaAnswer, schemaAnswerBytes, schemaAnswerEmbedded, schemaJson } from "../../../provider/tofu/schema-answer";
import { preEncoded, serviceDefinitions } from "../../../provider/tofu/services";
import { _repoRoot } from "../../support/helpers";
import { _pluginEnv, _startFace, type StartedFace } from "../../support/tofu-face";

/* eslint-disable @typescript-eslint/no-explicit-any -- the generated module and the samples are untyped */

const root = _repoRoot();
const DIST = path.join(root, "dist", "provider");
const BUNDLE = path.join(DIST, "tofu", "tofu.bundle.js");
const BIN = path.join(DIST, "tofu", "bin.js");
const CONVERSION = { longs: Number, enums: String, defaults: true, oneofs: true };

/** scripts/bundle.mjs's steps that make the face's bundle's own modules. */
type Steps = { tofuStaticProtocol(): Promise<string>; tofuSchemaAnswer(): string; tofuSchemaJson(): string; renamedDescriptor(d: object, r: Record<string, string>): any };
const steps = async (): Promise<Steps> => (await import(pathToFileURL(path.join(root, "scripts", "bundle.mjs")).href)) as Steps;

let generated: Promise<Codec> | undefined;
/** The static codec over the code the build generates (its `protobufjs/minimal` the repository's), generated once per run. */
function builtStaticCodec(): Promise<Codec> {
  generated ??= generateStaticCodec();
  return generated;
}

async function generateStaticCodec(): Promise<Codec> {
  const text = await (await steps()).tofuStaticProtocol();
  const req = createRequire(path.join(root, "package.json"));
  const mod = { exports: {} as Record<string, unknown> };
  const fn = runInThisContext(`(function (module, exports, require) {${text}\n})`, { filename: "protocol-static.js" }) as (m: unknown, e: unknown, r: NodeRequire) => void;
  fn(mod, mod.exports, req);
  return staticCodec(mod.exports);
}

/** A message of `type` with every field set (a oneof's first member only), nested messages to `depth`. */
function sample(type: Type, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const skipped = new Set(type.oneofsArray.flatMap((o) => o.fieldsArray.slice(1).map((f) => f.name)));
  for (const field of type.fieldsArray) {
    if (skipped.has(field.name)) continue;
    const resolved = field.resolvedType as Type | Enum | null;
    let value: unknown;
    if (resolved && "values" in resolved) value = Object.keys(resolved.values).at(-1);
    else if (resolved) {
      if (depth >= 3) continue;
      value = sample(resolved as Type, depth + 1);
    } else if (field.type === "string") value = `${field.name} ✓`;
    else if (field.type === "bool") value = true;
    else if (field.type === "bytes") value = Buffer.from([0x81, 0xa1, 0x61, depth]);
    else if (/int|fixed/.test(field.type)) value = 7 + depth;
    else value = 1.5;
    out[field.name] = field.map ? { key: value, other: value } : field.repeated ? [value, value] : value;
  }
  return out;
}

describe("the OpenTofu face's codec: the build's static code and its GetProviderSchema answer (issue 35 §3)", () => {
  const reflected = codec();

  it("the build's static code (pbjs) has every message of the protocol, under the protocol's names", async () => {
    const built = await builtStaticCodec();
    assert.equal(built.kind, "static");
    assert.deepEqual(built.names().sort(), reflected.names().sort());
    assert.ok(reflected.names().includes("tfplugin6.Schema.Object"), "the message pbjs would name Object is there");
    assert.throws(() => built.type("tfplugin6.Nothing"), /no message tfplugin6\.Nothing/);
  });

  it("renamed for pbjs: Schema.Object under its new name, and the field that refers to it follows it", async () => {
    const { renamedDescriptor } = await steps();
    const renamed = renamedDescriptor(PROTOCOL, STATIC_RENAMES);
    const schema = renamed.nested.tfplugin6.nested.Schema.nested;
    assert.equal(schema.Object, undefined);
    assert.ok(schema.Object_.fields.attributes);
    assert.equal(schema.Attribute.fields.nested_type.type, ".tfplugin6.Schema.Object_");
    assert.equal((PROTOCOL as any).nested.tfplugin6.nested.Schema.nested.Attribute.fields.nested_type.type, "Object", "the protocol itself is left as it is");
  });

  it("the same bytes out and the same objects in as the run-time codec, for every message with every field set", async () => {
    const built = await builtStaticCodec();
    for (const name of reflected.names()) {
      const theirs = reflected.type(name);
      const ours = built.type(name);
      const value = sample(theirs as unknown as Type);
      const bytes = Buffer.from(theirs.encode(theirs.fromObject(value)).finish());
      assert.ok(Buffer.from(ours.encode(ours.fromObject(value)).finish()).equals(bytes), `${name}: the same bytes`);
      assert.deepEqual(ours.toObject(ours.decode(bytes), CONVERSION), theirs.toObject(theirs.decode(bytes), CONVERSION), `${name}: the same object`);
      const empty = Buffer.alloc(0);
      assert.deepEqual(ours.toObject(ours.decode(empty), CONVERSION), theirs.toObject(theirs.decode(empty), CONVERSION), `${name}: the same defaults`);
    }
  });

  it("the whole schema answer through the static code: the run-time codec's bytes", async () => {
    const type = (await builtStaticCodec()).type("tfplugin6.GetProviderSchema.Response");
    assert.ok(Buffer.from(type.encode(type.fromObject(schemaAnswer())).finish()).equals(encodeSchemaAnswer()));
  });

  it("outside the bundle (tsc's output) the answer is encoded at run time, once; a pre-encoded answer goes out as its bytes", () => {
    assert.equal(schemaAnswerEmbedded(), false);
    const bytes = schemaAnswerBytes();
    assert.equal(schemaAnswerBytes(), bytes, "the same Buffer: encoded once");
    assert.ok(bytes.equals(encodeSchemaAnswer()));
    const method = serviceDefinitions()["tfplugin6.Provider"]["GetProviderSchema"]!;
    assert.equal(method.responseSerialize(preEncoded("tfplugin6.GetProviderSchema.Response", bytes)), bytes, "sent unchanged");
    // Bytes encoded as one message are never sent as another: any other serializer refuses them.
    const other = serviceDefinitions()["tfplugin6.Provider"]["ReadResource"]!;
    assert.throws(() => other.responseSerialize(preEncoded("tfplugin6.GetProviderSchema.Response", bytes)), /tfplugin6\.GetProviderSchema\.Response given encoded where tfplugin6\.ReadResource\.Response is sent/);
    assert.throws(() => method.requestSerialize(preEncoded("tfplugin6.GetProviderSchema.Response", bytes)), /where tfplugin6\.GetProviderSchema\.Request is sent/);
    const answer = method.responseDeserialize(bytes) as any;
    assert.deepEqual(Object.keys(answer.resource_schemas).sort(), ["dnsaccount_dedicated_ipv4", "dnsaccount_device", "dnsaccount_dns_server", "dnsaccount_token"]);
    assert.deepEqual(answer.server_capabilities, { plan_destroy: false, get_provider_schema_optional: false, move_resource_state: false, generate_resource_config: false });
  });

  it("the schema as JSON and back is the schema (attribute types as Buffers); outside the bundle the handlers' schema is made at run time", () => {
    const schema = terraformSchema();
    const text = schemaJson(schema);
    assert.match(text, /"\$bytes":"/);
    const back = parseSchema(text);
    assert.deepEqual(back, schema);
    assert.ok(Buffer.isBuffer(back.provider.block.attributes[0]!.type));
    assert.deepEqual(providerSchema(), schema);
    assert.equal(providerSchema(), providerSchema(), "made once");
  });

  describe("the built bundle (npm run build)", () => {
    it("embeds the answer's bytes as this source encodes them now (stale bytes fail), which scripts/bundle.mjs computes", async () => {
      const now = encodeSchemaAnswer().toString("base64");
      assert.equal((await steps()).tofuSchemaAnswer(), now);
      assert.ok(readFileSync(BUNDLE, "utf8").includes(JSON.stringify(now)), "tofu.bundle.js holds the GetProviderSchema answer of this source: rebuild it (npm run build)");
    });

    it("embeds the schema the handlers read as this source makes it now (stale schema fails)", async () => {
      const now = Buffer.from(schemaJson(), "utf8").toString("base64");
      assert.equal((await steps()).tofuSchemaJson(), now);
      assert.ok(readFileSync(BUNDLE, "utf8").includes(JSON.stringify(now)), "tofu.bundle.js holds the schema of this source: rebuild it (npm run build)");
    });

    it("generates no message code at run time: loading it and running a start's and every message's functions makes no protobuf.js code with Function()", () => {
      // In a child: the global Function is watched before the bundle loads, as in a provider process. What
      // protobuf.js's run-time codec generates reads and writes through its Reader/Writer or checks
      // `instanceof this.ctor`; zod's compiled validators (warmValidators) are generated code of another kind.
      const count = (load: string): { codec: number; all: number } => {
        const script = [
          "const made = []; const F = Function; const body = (x) => String(x[x.length - 1]);",
          "globalThis.Function = new Proxy(F, { apply(t, a, x) { made.push(body(x)); return Reflect.apply(t, a, x); }, construct(t, x) { made.push(body(x)); return Reflect.construct(t, x); } });",
          load,
          String.raw`const codec = made.filter((b) => /Writer\.create|Reader\.create|instanceof this\.ctor/.test(b));`,
          "process.stdout.write(JSON.stringify({ codec: codec.length, all: made.length }));",
        ].join("\n");
        return JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as { codec: number; all: number };
      };
      const bundled = count(`require(${JSON.stringify(path.join(DIST, "shared", "load-bundle.js"))}).loadBundle(${JSON.stringify(BUNDLE)}).warm();`);
      assert.equal(bundled.codec, 0, `${bundled.codec} of ${bundled.all} functions made at run time are protobuf.js's codec`);
      // The same watch on tsc's output, which keeps the run-time codec, sees that codec's functions made.
      const unbundled = count(`require(${JSON.stringify(path.join(DIST, "tofu", "main.js"))}).warm();`);
      assert.ok(unbundled.codec > 0, "the watch saw no codec function made by the run-time codec");
    });

    it("package:tofu's bundle is built so too: checkTofuBuilt refuses one made without tofuInside (the run-time codec inside)", async () => {
      const { checkTofuBuilt } = (await import(pathToFileURL(path.join(root, "scripts", "package-tofu.mjs")).href)) as { checkTofuBuilt(inputs: string[]): void };
      const { bundle } = (await import(pathToFileURL(path.join(root, "scripts", "package-plugin.mjs")).href)) as { bundle(o: object): Promise<{ files: string[] }> };
      const { tofuInside } = (await import(pathToFileURL(path.join(root, "scripts", "bundle.mjs")).href)) as { tofuInside(): Promise<object> };
      const entry = path.join(root, "provider", "tofu", "main.ts");
      const built = await bundle({ entry, plugins: [await tofuInside()], check: checkTofuBuilt });
      assert.ok(built.files.includes("tofu-built:protocol-static"));
      await assert.rejects(bundle({ entry, plugins: [], check: checkTofuBuilt }), /the bundle lacks provider\/tofu\/codec-static\.ts \(built without tofuInside\)/);
      assert.throws(() => checkTofuBuilt([...built.files, "provider/tofu/codec.ts"]), /holds the run-time codec: provider\/tofu\/codec\.ts/);
    });

    describe("served", () => {
      let f: StartedFace | undefined;
      after(async () => {
        f?.child.kill("SIGKILL");
        await f?.exited;
      });

      it("GetProviderSchema answers exactly the run-time encoding's bytes (the npm bin, plain gRPC)", async () => {
        f = await _startFace(_pluginEnv({}), [process.execPath, BIN]);
        assert.equal(f.fields.length, 6, `handshake line: ${f.fields.join("|")}; stderr:\n${f.stderr()}`);
        const client = new grpc.Client(f.fields[3]!, grpc.credentials.createInsecure());
        try {
          const raw = await new Promise<Buffer>((resolve, reject) =>
            client.makeUnaryRequest("/tfplugin6.Provider/GetProviderSchema", (b: Buffer) => b, (b: Buffer) => b, Buffer.alloc(0), (err, res) => (err ? reject(err) : resolve(res!))),
          );
          assert.ok(raw.equals(encodeSchemaAnswer()), `the served answer (${raw.length} bytes) is the run-time encoding (${encodeSchemaAnswer().length} bytes)`);
        } finally {
          client.close();
        }
      });
    });
  });
});
