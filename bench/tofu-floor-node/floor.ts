/**
 * The Node tofu floor's provider (`npm run bench -- tofu`, face "tofu node floor"), what ./entry loads
 * after the handshake line: the same provider as the Go floor (../tofu-floor/main.go), on grpc-js and
 * protobuf.js's light build with the tfplugin6 descriptor of provider/tofu/protocol.ts, and undici.
 *
 * The same schema (a provider block of `username`; `dnsaccount_device` with `name`, `device_type`,
 * `dns_server_id` and a computed `id`), and the same requests: one password login per process that makes
 * a request (lazily, on its first), then one GET (Read), POST (create) or DELETE (destroy) per device over
 * one undici `Pool` of 16 connections (or node:http's keep-alive agent of 16 sockets, when
 * BENCH_NODE_FLOOR_HTTP is `node:http`). No revocation, no retries, no checks beyond the status code. The
 * base URL and the password come from DNS_ACCOUNT_BASE_URL and DNS_ACCOUNT_PASSWORD.
 *
 * With BENCH_NODE_FLOOR_SCHEMA=ours it serves our provider's schema instead (its GetProviderSchema answer,
 * which ./build writes beside the bundle as `schema-ours.bin`), with the same calls and requests: a
 * device's other attributes are kept as tofu sends them (read and written with @msgpack/msgpack, loaded
 * on first use; only `id` is set, from the create's answer). What tofu spends on our schema's declaration
 * is then in the floor too; what it spends on the values ours keeps in the state is not (the floor's are
 * null), nor is our provider's own work.
 *
 * Made to be the strongest reasonable Node provider, not a straw man: messages are encoded from plain
 * objects and decoded without a conversion pass, values are read and written by a msgpack codec of the
 * few types this schema has (below), undici is loaded on the first request only, each message type is
 * looked up (its code generated) on its first use only, and the GetProviderSchema answer is encoded once. Only the services tofu calls are served (GRPCStdio and GRPCBroker are left to
 * grpc-js's UNIMPLEMENTED, which go-plugin's client tolerates).
 */
import * as grpc from "@grpc/grpc-js";
import { readFileSync } from "node:fs";
import type net from "node:net";
import path from "node:path";
import { Root, type Type } from "protobufjs/light";
import type * as undiciTypes from "undici";
import { PROTOCOL } from "../../provider/tofu/protocol";

/* eslint-disable @typescript-eslint/no-explicit-any -- messages are protobuf.js's decoded objects */

/** A device's attributes, as its state holds them (null where there is nothing, `UNKNOWN` not known yet). */
type Value = string | null | typeof UNKNOWN;
type Device = Record<(typeof ATTRIBUTES)[number], Value>;

const UNKNOWN = Symbol("unknown");
/** The resource's attributes, in cty's order (sorted), which is how tofu's msgpack writes them. */
const ATTRIBUTES = ["device_type", "dns_server_id", "id", "name"] as const;

/** Reads a msgpack value of the types this schema has: a map of strings, null, or an extension (unknown). */
function readMsgpack(buf: Uint8Array): Record<string, Value> | null {
  let at = 0;
  const u8 = (): number => buf[at++]!;
  const be = (n: number): number => {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + u8();
    return v;
  };
  const text = (n: number): string => {
    const s = Buffer.from(buf.buffer, buf.byteOffset + at, n).toString("utf8");
    at += n;
    return s;
  };
  const value = (): Value => {
    const b = u8();
    if (b >= 0xa0 && b <= 0xbf) return text(b & 0x1f);
    if (b === 0xc0) return null;
    if (b === 0xd9) return text(be(1));
    if (b === 0xda) return text(be(2));
    if (b === 0xdb) return text(be(4));
    if (b >= 0xd4 && b <= 0xd8) {
      at += 1 + (1 << (b - 0xd4));
      return UNKNOWN;
    }
    if (b >= 0xc7 && b <= 0xc9) {
      const n = be(1 << (b - 0xc7));
      at += 1 + n;
      return UNKNOWN;
    }
    throw new Error(`the tofu node floor reads strings, null and unknown values only, not msgpack 0x${b.toString(16)}`);
  };
  const b = u8();
  if (b === 0xc0) return null;
  const n = b >= 0x80 && b <= 0x8f ? b & 0x0f : b === 0xde ? be(2) : -1;
  if (n < 0) throw new Error(`the tofu node floor reads objects only, not msgpack 0x${b.toString(16)}`);
  const out: Record<string, Value> = {};
  for (let i = 0; i < n; i++) {
    const k = value();
    out[String(k)] = value();
  }
  return out;
}

/** A device (or null) as msgpack: a map of its four attributes in cty's order. */
function writeMsgpack(d: Device | null): Buffer {
  if (d === null) return Buffer.from([0xc0]);
  const parts: Buffer[] = [Buffer.from([0x80 | ATTRIBUTES.length])];
  const str = (s: string): void => {
    const b = Buffer.from(s, "utf8");
    parts.push(Buffer.from(b.length < 32 ? [0xa0 | b.length] : b.length < 256 ? [0xd9, b.length] : [0xda, b.length >> 8, b.length & 0xff]), b);
  };
  for (const k of ATTRIBUTES) {
    str(k);
    const v = d[k];
    if (v === null) parts.push(Buffer.from([0xc0]));
    else if (v === UNKNOWN) parts.push(Buffer.from([0xd4, 0, 0]));
    else str(v);
  }
  return Buffer.concat(parts);
}

function device(v: Record<string, unknown> | null): Device | null {
  if (v === null) return null;
  const s = (x: unknown): Value => (x === UNKNOWN ? UNKNOWN : typeof x === "string" ? x : null);
  return { device_type: s(v["device_type"]), dns_server_id: s(v["dns_server_id"]), id: s(v["id"]), name: s(v["name"]) };
}

/** A `DynamicValue`'s device (msgpack, or the JSON UpgradeResourceState carries). */
function readDevice(dv: { msgpack?: Uint8Array; json?: Uint8Array } | null | undefined): Device | null {
  if (dv?.msgpack?.length) return device(readMsgpack(dv.msgpack));
  if (dv?.json?.length) return device(JSON.parse(Buffer.from(dv.json).toString("utf8")) as Record<string, unknown> | null);
  return null;
}

const dynamic = (d: Device | null): { msgpack: Buffer } => ({ msgpack: writeMsgpack(d) });

/** BENCH_NODE_FLOOR_SCHEMA=ours: our provider's schema, values of any shape. */
const OUR_SCHEMA = process.env["BENCH_NODE_FLOOR_SCHEMA"] === "ours";
type Obj = Record<string, unknown>;
let anyCodec: { decode(b: Uint8Array): unknown; encode(v: unknown): Buffer } | undefined;

/** A msgpack codec of any value, cty's unknown (extension 0; 12 is a refined unknown) as {@link UNKNOWN}. */
function msgpackCodec(): NonNullable<typeof anyCodec> {
  if (!anyCodec) {
    const { Decoder, Encoder, ExtensionCodec } = require("@msgpack/msgpack") as typeof import("@msgpack/msgpack");
    const extensionCodec = new ExtensionCodec();
    extensionCodec.register({ type: 0, encode: (v: unknown) => (v === UNKNOWN ? new Uint8Array([0]) : null), decode: () => UNKNOWN });
    extensionCodec.register({ type: 12, encode: () => null, decode: () => UNKNOWN });
    const decoder = new Decoder({ extensionCodec });
    const encoder = new Encoder({ extensionCodec });
    // Buffer.from copies: the encoder reuses its buffer.
    anyCodec = { decode: (b) => decoder.decode(b), encode: (v) => Buffer.from(encoder.encode(v)) };
  }
  return anyCodec;
}

/** A `DynamicValue`'s object (msgpack, or UpgradeResourceState's JSON), of any attributes. */
function readAny(dv: { msgpack?: Uint8Array; json?: Uint8Array } | null | undefined): Obj | null {
  if (dv?.msgpack?.length) return msgpackCodec().decode(dv.msgpack) as Obj | null;
  if (dv?.json?.length) return JSON.parse(Buffer.from(dv.json).toString("utf8")) as Obj | null;
  return null;
}

const anyDynamic = (v: Obj | null): { msgpack: Buffer } => ({ msgpack: msgpackCodec().encode(v) });
const fail = (err: unknown): { diagnostics: object[] } => ({ diagnostics: [{ severity: 1, summary: err instanceof Error ? err.message : String(err) }] });
const str = (type: "string"): Buffer => Buffer.from(JSON.stringify(type));

/** The schema: the Go floor's, attribute for attribute. */
const SCHEMA = {
  provider: { block: { attributes: [{ name: "username", type: str("string"), optional: true }] } },
  resource_schemas: {
    dnsaccount_device: {
      block: {
        attributes: [
          { name: "id", type: str("string"), computed: true },
          { name: "name", type: str("string"), required: true },
          { name: "device_type", type: str("string"), required: true },
          { name: "dns_server_id", type: str("string"), required: true },
        ],
      },
    },
  },
  data_source_schemas: {},
  diagnostics: [],
};

/** One HTTP request and its answer's status and text. */
type Send = (method: string, path: string, headers: Record<string, string>, body?: string) => Promise<{ status: number; text: string }>;

/** Requests through an undici `Pool` of 16 connections to `origin` (undici loaded on the first request). */
function undiciSend(origin: string): Send {
  let pool: undiciTypes.Pool | undefined;
  return async (method, path, headers, body) => {
    if (!pool) {
      const { Pool } = require("undici") as typeof undiciTypes;
      pool = new Pool(origin, { connections: 16 });
    }
    const res = await pool.request({ method: method as undiciTypes.Dispatcher.HttpMethod, path, headers, ...(body !== undefined ? { body } : {}) });
    return { status: res.statusCode, text: await res.body.text() };
  };
}

/** Requests through node:http with a keep-alive agent of 16 sockets to `origin`. */
function nodeHttpSend(origin: string): Send {
  const http = require("node:http") as typeof import("node:http");
  const url = new URL(origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  return (method, path, headers, body) =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
}

/**
 * What one process needs to reach the service; its login is made once, on the first request. Requests go
 * through undici, or through node:http when BENCH_NODE_FLOOR_HTTP is `node:http` (to measure what undici
 * costs a process that makes requests).
 */
class Account {
  private token: Promise<string> | undefined;
  private readonly prefix: string;
  private readonly send: Send;
  constructor(
    base: string,
    private readonly username: string,
    private readonly password: string,
    client = process.env["BENCH_NODE_FLOOR_HTTP"],
  ) {
    const url = new URL(base);
    this.prefix = `${url.pathname.replace(/\/+$/, "")}/oapi/v1`;
    this.send = client === "node:http" ? nodeHttpSend(url.origin) : undiciSend(url.origin);
  }

  private login(): Promise<string> {
    this.token ??= (async () => {
      const body = new URLSearchParams({ grant_type: "password", username: this.username, password: this.password }).toString();
      const res = await this.send("POST", `${this.prefix}/oauth_token`, { "content-type": "application/x-www-form-urlencoded" }, body);
      const json = (res.status === 200 ? JSON.parse(res.text) : {}) as { access_token?: string };
      if (!json.access_token) throw new Error(`login: HTTP ${res.status}`);
      return json.access_token;
    })();
    return this.token;
  }

  /** One request; a JSON answer decoded (undefined for a 404 of a GET). */
  async call(method: "GET" | "POST" | "DELETE", path: string, body?: object): Promise<Record<string, unknown> | undefined> {
    const token = await this.login();
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
    if (body) headers["content-type"] = "application/json";
    const res = await this.send(method, this.prefix + path, headers, body ? JSON.stringify(body) : undefined);
    if (res.status === 404 && method === "GET") return undefined;
    if (res.status >= 300) throw new Error(`${method} ${path}: HTTP ${res.status} ${res.text}`);
    return method === "DELETE" ? {} : (JSON.parse(res.text) as Record<string, unknown>);
  }

  /** Runs the request path's code once, without a request (for the code cache). */
  warm(): void {
    const undici = require("undici") as typeof undiciTypes;
    void new undici.Pool("http://127.0.0.1:1").destroy().catch(() => undefined);
  }
}

/**
 * A service definition for grpc-js from the descriptor: plain objects out, decoded messages in, as is.
 * Each message type is looked up (and its code generated by protobuf.js) on its first use only.
 */
function service(root: Root, name: string, methodNames: readonly string[], types: (method: string) => [string, string]): grpc.ServiceDefinition {
  const methods: Record<string, grpc.MethodDefinition<object, object>> = {};
  for (const method of methodNames) {
    const [requestName, responseName] = types(method);
    let request: Type | undefined;
    let response: Type | undefined;
    const req = (): Type => (request ??= root.lookupType(requestName));
    const res = (): Type => (response ??= root.lookupType(responseName));
    methods[method] = {
      path: `/${name}/${method}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: (v: object) => Buffer.from(req().encode(v).finish()),
      requestDeserialize: (b: Buffer) => req().decode(b),
      responseSerialize: (v: object) => (Buffer.isBuffer(v) ? v : Buffer.from(res().encode(v).finish())),
      responseDeserialize: (b: Buffer) => res().decode(b),
    };
  }
  return methods;
}

/**
 * The descriptor as a protobuf.js root, unresolved: `Root.fromJSON` resolves every type at once, where a
 * type's first use resolves its own fields.
 */
const descriptor = (): Root => {
  const root = new Root();
  root.addJSON(PROTOCOL.nested ?? {});
  return root;
};

/** The tfplugin6 calls the floor answers (tofu's others are UNIMPLEMENTED). */
const CALLS = [
  "GetMetadata",
  "GetProviderSchema",
  "GetResourceIdentitySchemas",
  "ValidateProviderConfig",
  "ValidateResourceConfig",
  "ConfigureProvider",
  "StopProvider",
  "UpgradeResourceState",
  "ReadResource",
  "PlanResourceChange",
  "ApplyResourceChange",
] as const;

type Unary = (call: grpc.ServerUnaryCall<any, any>, callback: grpc.sendUnaryData<any>) => void;

/** A handler that answers what `fn` resolves, or an error diagnostic. */
const handle =
  (fn: (request: any) => Promise<object> | object): Unary =>
  (call, callback) => {
    Promise.resolve()
      .then(() => fn(call.request))
      .then(
        (r) => callback(null, r),
        (err: unknown) => callback(null, fail(err)),
      );
  };

/** The gRPC server with its services, the GetProviderSchema answer encoded once. */
function server(onShutdown: () => void): grpc.Server {
  const root = descriptor();
  const provider = service(root, "tfplugin6.Provider", CALLS, (m) => [`tfplugin6.${m}.Request`, `tfplugin6.${m}.Response`]);
  let schema: Buffer | undefined;
  let account: Account | undefined;
  const acct = (): Account => account ?? (account = new Account(process.env["DNS_ACCOUNT_BASE_URL"] ?? "", "", process.env["DNS_ACCOUNT_PASSWORD"] ?? ""));
  const none = { diagnostics: [] };
  const s = new grpc.Server();
  const configured = (a: Account): void => void (account = a);
  /** The floor's own schema, and devices of its four attributes. */
  const floorHandlers: Record<string, Unary> = {
    GetMetadata: handle(() => ({ resources: [{ type_name: "dnsaccount_device" }], diagnostics: [] })),
    GetProviderSchema: ((_call, callback) => callback(null, (schema ??= Buffer.from(root.lookupType("tfplugin6.GetProviderSchema.Response").encode(SCHEMA).finish())))) as Unary,
    GetResourceIdentitySchemas: handle(() => ({ identity_schemas: {}, diagnostics: [] })),
    ValidateProviderConfig: handle(() => none),
    ValidateResourceConfig: handle(() => none),
    ConfigureProvider: handle((r) => {
      const config = r.config?.msgpack?.length ? readMsgpack(r.config.msgpack) : null;
      const username = config?.["username"];
      configured(new Account(process.env["DNS_ACCOUNT_BASE_URL"] ?? "", typeof username === "string" ? username : "", process.env["DNS_ACCOUNT_PASSWORD"] ?? ""));
      return none;
    }),
    StopProvider: handle(() => ({})),
    UpgradeResourceState: handle((r) => ({ upgraded_state: dynamic(readDevice(r.raw_state)), diagnostics: [] })),
    ReadResource: handle(async (r) => {
      const d = readDevice(r.current_state);
      const live = await acct().call("GET", `/devices/${String(d?.id)}`);
      return { new_state: dynamic(live ? device(live) : null), private: r.private, diagnostics: [] };
    }),
    PlanResourceChange: handle((r) => {
      const proposed = readDevice(r.proposed_new_state);
      const prior = readDevice(r.prior_state);
      if (proposed === null || prior !== null) return { planned_state: r.proposed_new_state, planned_private: r.prior_private, diagnostics: [] };
      return { planned_state: dynamic({ ...proposed, id: UNKNOWN }), diagnostics: [] };
    }),
    ApplyResourceChange: handle(async (r) => {
      const planned = readDevice(r.planned_state);
      const prior = readDevice(r.prior_state);
      if (planned === null) {
        await acct().call("DELETE", `/devices/${String(prior?.id)}`);
        return { new_state: r.planned_state, diagnostics: [] };
      }
      if (prior === null) {
        const made = await acct().call("POST", "/devices", { name: planned.name, device_type: planned.device_type, dns_server_id: planned.dns_server_id });
        return { new_state: dynamic(device(made ?? null)), diagnostics: [] };
      }
      throw new Error("the tofu node floor does not update devices");
    }),
  };
  s.addService(provider, OUR_SCHEMA ? { ...floorHandlers, ...ourSchemaHandlers(acct, configured) } : floorHandlers);
  s.addService(service(root, "plugin.GRPCController", ["Shutdown"], () => ["plugin.Empty", "plugin.Empty"]), {
    Shutdown: ((_call, callback) => {
      process.stderr.write(`${JSON.stringify({ "@level": "debug", "@message": "Shutdown: the client is done with the provider", "@timestamp": new Date().toISOString() })}\n`);
      callback(null, {});
      s.tryShutdown(onShutdown);
    }) as Unary,
  });
  s.addService(service(root, "grpc.health.v1.Health", ["Check"], () => ["grpc.health.v1.HealthCheckRequest", "grpc.health.v1.HealthCheckResponse"]), { Check: ((_call, callback) => callback(null, { status: 1 })) as Unary });
  return s;
}

/**
 * BENCH_NODE_FLOOR_SCHEMA=ours: our provider's schema answer (read once, from beside the bundle), its
 * provider block read whatever it holds, and devices of any attributes: the same calls and requests.
 */
function ourSchemaHandlers(acct: () => Account, configured: (a: Account) => void): Record<string, Unary> {
  let schema: Buffer | undefined;
  return {
    GetProviderSchema: ((_call, callback) => callback(null, (schema ??= readFileSync(path.join(__dirname, "schema-ours.bin"))))) as Unary,
    ConfigureProvider: handle((r) => {
      const username = readAny(r.config)?.["username"];
      configured(new Account(process.env["DNS_ACCOUNT_BASE_URL"] ?? "", typeof username === "string" ? username : "", process.env["DNS_ACCOUNT_PASSWORD"] ?? ""));
      return { diagnostics: [] };
    }),
    UpgradeResourceState: handle((r) => ({ upgraded_state: anyDynamic(readAny(r.raw_state)), diagnostics: [] })),
    ReadResource: handle(async (r) => {
      const d = readAny(r.current_state);
      const live = await acct().call("GET", `/devices/${String(d?.["id"])}`);
      return { new_state: live ? r.current_state : anyDynamic(null), private: r.private, diagnostics: [] };
    }),
    PlanResourceChange: handle((r) => {
      const proposed = readAny(r.proposed_new_state);
      const prior = readAny(r.prior_state);
      if (proposed === null || prior !== null) return { planned_state: r.proposed_new_state, planned_private: r.prior_private, diagnostics: [] };
      return { planned_state: anyDynamic({ ...proposed, id: UNKNOWN }), diagnostics: [] };
    }),
    ApplyResourceChange: handle(async (r) => {
      const planned = readAny(r.planned_state);
      const prior = readAny(r.prior_state);
      if (planned === null) {
        await acct().call("DELETE", `/devices/${String(prior?.["id"])}`);
        return { new_state: r.planned_state, diagnostics: [] };
      }
      if (prior === null) {
        const made = await acct().call("POST", "/devices", { name: planned["name"], device_type: planned["device_type"], dns_server_id: planned["dns_server_id"] });
        return { new_state: anyDynamic({ ...planned, id: String(made?.["id"]) }), diagnostics: [] };
      }
      throw new Error("the tofu node floor does not update devices");
    }),
  };
}

/** What ./entry hands over: the port's connections (paused), and the certificates when AutoMTLS is on. */
export interface Opened {
  take(accept: (socket: net.Socket) => void): void;
  close(): void;
  mtls?: { clientCert: string; certPem: string; keyPem: string };
}

/**
 * Serves the floor on the connections ./entry opened until Shutdown, then exits.
 *
 * @example
 * ```ts
 * serve({ take: (fn) => listener.on("connection", fn), close: () => listener.close() });
 * ```
 */
export function serve(opened: Opened): void {
  const s = server(() => process.exit(0));
  const credentials = opened.mtls
    ? grpc.ServerCredentials.createSsl(Buffer.from(opened.mtls.clientCert), [{ private_key: Buffer.from(opened.mtls.keyPem), cert_chain: Buffer.from(opened.mtls.certPem) }], true)
    : grpc.ServerCredentials.createInsecure();
  const injector = s.createConnectionInjector(credentials);
  opened.take((socket) => {
    injector.injectConnection(socket);
    socket.resume();
  });
}

/**
 * Runs what a start and tofu's first calls run, serving nothing (the build runs it before it writes the
 * bundle's V8 code cache): the server, its services and messages, the schema's encoding, a msgpack round
 * trip, undici.
 *
 * @example
 * ```ts
 * warm(); // then script.createCachedData()
 * ```
 */
export function warm(): void {
  const s = server(() => undefined);
  const root = descriptor();
  const provider = service(root, "tfplugin6.Provider", CALLS, (m) => [`tfplugin6.${m}.Request`, `tfplugin6.${m}.Response`]);
  for (const m of CALLS) provider[m]!.responseSerialize(provider[m]!.requestDeserialize(Buffer.alloc(0)));
  root.lookupType("tfplugin6.GetProviderSchema.Response").encode(SCHEMA);
  s.createConnectionInjector(grpc.ServerCredentials.createInsecure());
  readDevice(dynamic({ device_type: "LINUX", dns_server_id: "s", id: UNKNOWN, name: "n" }));
  // BENCH_NODE_FLOOR_SCHEMA=ours: its codec too (./build writes that mode's cache apart), as ours has its own in its cache.
  if (OUR_SCHEMA) readAny(anyDynamic({ name: "n", id: UNKNOWN, settings: { protection_enabled: true } }));
  new Account("http://127.0.0.1:1", "u", "p").warm();
  s.forceShutdown();
}
