/**
 * The plugin face's engine floor: a trivial resource provider speaking the same gRPC protocol with the
 * same pieces as ours (`@pulumi/pulumi`'s service definition, message classes and `Struct`), whose
 * Check echoes its inputs and whose Create, Read and Delete make exactly the floor's requests
 * (./floor-ops). Started as `node floor-plugin.js` in a program folder; prints its port first.
 *
 * Under the real engine (`npm run bench -- engine-up` runs it as `pulumi-resource-dns-account` on PATH)
 * it also serves what a YAML program needs and ours serves: GetPluginInfo with the package version and
 * GetSchema with our schema (`pulumi-language-yaml` type-checks the program with it); Configure's `args`
 * hold the secret password wrapped (the engine keeps secrets there), which it unwraps. Create sends
 * the declared inputs as the service's body with each top-level key in snake_case (a YAML program
 * declares `deviceType`, the service takes `device_type`): the least translation any provider makes.
 */
import { createRequire } from "node:module";
import path from "node:path";
import document from "../provider/schema/schema.json";
import { VERSION } from "../sdk/version";
import * as ops from "./floor-ops";

/* eslint-disable @typescript-eslint/no-explicit-any -- the generated gRPC and protobuf classes are untyped here */

const req = createRequire(path.join(path.dirname(createRequire(path.join(process.cwd(), "package.json")).resolve("@pulumi/pulumi/package.json")), "package.json"));
const grpc = req("@grpc/grpc-js");
const services = req("./proto/provider_grpc_pb.js");
const messages = req("./proto/provider_pb.js");
const plugin = req("./proto/plugin_pb.js");
const empty = req("google-protobuf/google/protobuf/empty_pb.js");
const struct = req("google-protobuf/google/protobuf/struct_pb.js");

let target: ops.FloorTarget = { baseUrl: "", username: "", password: "" };
const SIG = "4dabf18193072939515e22adb298388d";
/** A Configure argument as a string: the engine wraps a secret one as `{ [SIG]: …, value }`. */
const plainArg = (v: unknown): string => (typeof v === "object" && v !== null && SIG in v ? String((v as unknown as { value: unknown }).value) : String(v));
/** The service's body: top-level keys in snake_case (already snake_case ones unchanged). */
const serviceBody = (props: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(props).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
const kindOf = (urn: string): ops.Kind => (urn.split("::")[2]!.endsWith("DnsServer") ? "DnsServer" : "Device");
const handle = (fn: (r: any) => Promise<unknown>) => (call: { request: any }, cb: (err: unknown, v?: unknown) => void) =>
  void fn(call.request).then((v) => cb(null, v), (e: Error) => cb({ code: grpc.status.UNKNOWN, details: e.message }));

const server = new grpc.Server();
server.addService(services.ResourceProviderService, {
  getPluginInfo: handle(async () => {
    const info = new plugin.PluginInfo();
    info.setVersion(VERSION);
    return info;
  }),
  getSchema: handle(async () => {
    const res = new messages.GetSchemaResponse();
    res.setSchema(JSON.stringify({ ...(document as object), version: VERSION }));
    return res;
  }),
  configure: handle(async (r) => {
    const a = r.getArgs().toJavaScript() as Record<string, unknown>;
    target = { baseUrl: plainArg(a.baseUrl), username: plainArg(a.username), password: plainArg(a.password) };
    const res = new messages.ConfigureResponse();
    res.setAcceptsecrets(false);
    return res;
  }),
  check: handle(async (r) => {
    const res = new messages.CheckResponse();
    res.setInputs(r.getNews());
    return res;
  }),
  create: handle(async (r) => {
    const made = await ops.create(target, kindOf(r.getUrn()), serviceBody(r.getProperties().toJavaScript()));
    const res = new messages.CreateResponse();
    res.setId(made.id);
    res.setProperties(struct.Struct.fromJavaScript(made.props));
    return res;
  }),
  read: handle(async (r) => {
    const props = await ops.read(target, kindOf(r.getUrn()), r.getId());
    const res = new messages.ReadResponse();
    res.setId(r.getId());
    res.setProperties(struct.Struct.fromJavaScript(props));
    return res;
  }),
  delete: handle(async (r) => {
    await ops.remove(target, kindOf(r.getUrn()), r.getId());
    return new empty.Empty();
  }),
  cancel: handle(async () => new empty.Empty()),
});
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err: Error | null, port: number) => {
  if (err) throw err;
  process.stdout.write(`${port}\n`);
});
