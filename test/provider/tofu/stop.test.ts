import assert from "node:assert/strict";
import { createServer, type IncomingMessage, request as httpRequest, type Server, type ServerResponse } from "node:http";
import net from "node:net";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { type Emulator, startEmulator } from "../../../emulator";
import { createClient } from "../../../sdk";
import { resetSharedSessions } from "../../../sdk/client/shared-session";
import { revokeMintedNow } from "../../../provider/shared/exit-revocation";
import { LOADER_OPTIONS, PROTOCOL } from "../../../provider/tofu/protocol";
import { servedKinds } from "../../../provider/tofu/resources";
import { terraformSchema } from "../../../provider/tofu/schema";
import { newFace, serve } from "../../../provider/tofu/server";
import { blockShape, dynamic, readDynamic, TF_UNKNOWN, type TfValue } from "../../../provider/tofu/values";
import { _unary } from "../../support/tofu-face";

/* eslint-disable @typescript-eslint/no-explicit-any -- the loaded gRPC clients are untyped */

const loaded = grpc.loadPackageDefinition(protoLoader.fromJSON(PROTOCOL, LOADER_OPTIONS)) as any;
const API_KEY = "emulator-api-key-user";
const USERNAME = "user@example.com";
const PASSWORD = "emulator-password";

/** A request the gate holds: it reached the gate, and goes on to the emulator on `release()`. */
interface Held {
  method: string;
  path: string;
  release(): void;
  /** Resolves when the client gave the request up (closed its connection) before an answer. */
  abandoned: Promise<void>;
}

/**
 * A gate in front of the emulator: every request goes through to it, except the next one matching an
 * armed rule, which is held (until released) or answered 429 with a long Retry-After. Arrivals are events,
 * so the tests wait for them, never for time.
 */
class Gate {
  #server: Server;
  #rules: { match: (method: string, path: string) => boolean; kind: "hold" | "429"; arrived: (held: Held) => void }[] = [];
  url = "";
  constructor(private readonly target: () => string) {
    this.#server = createServer((req, res) => this.#handle(req, res));
  }
  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as net.AddressInfo).port}`;
  }
  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
  /** The next request for which `match` holds: held until released (or answered 429 with Retry-After: 50). */
  next(kind: "hold" | "429", match: (method: string, path: string) => boolean): Promise<Held> {
    return new Promise((arrived) => this.#rules.push({ match, kind, arrived }));
  }
  #handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const method = req.method ?? "GET";
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const i = this.#rules.findIndex((r) => r.match(method, path));
      const forward = (): void => {
        // The emulator answers only its own Host (DNS rebinding): the request is sent with its host.
        const { host: _host, ...headers } = req.headers;
        const out = httpRequest(`${this.target()}${req.url}`, { method, headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        out.on("error", () => res.destroy());
        out.end(Buffer.concat(chunks));
      };
      if (i < 0) return forward();
      const [rule] = this.#rules.splice(i, 1);
      const abandoned = new Promise<void>((resolve) => res.once("close", () => resolve()));
      if (rule!.kind === "429") {
        res.writeHead(429, { "content-type": "application/json", "retry-after": "50" });
        res.end(JSON.stringify({ error_code: "http_429" }));
      }
      rule!.arrived({ method, path, release: forward, abandoned });
    });
  }
}

const schema = terraformSchema();
const kinds = servedKinds(schema);
const providerShape = blockShape(schema.provider.block);
const device = kinds.resources.get("dnsaccount_device")!;

/** A provider block (tofu names); the attributes it leaves out are null. */
function providerBlock(values: Record<string, TfValue>): { msgpack: Buffer } {
  return dynamic(values, providerShape);
}

/** The tofu-visible text of a response's diagnostics. */
function said(response: any): string {
  return (response.diagnostics ?? []).map((d: any) => `${d.severity}: ${d.summary}: ${d.detail}`).join("\n");
}

/**
 * StopProvider (tofu's Ctrl-C, issue 34) over gRPC, against the face's own server in this process and the
 * emulator behind a gate that holds requests: calls in flight end at once with `stopped`, a create already
 * sent is recorded, and Shutdown still revokes what a stopped login minted.
 */
describe("the OpenTofu face: StopProvider aborts the calls in flight", function () {
  this.timeout(30_000);
  let emu: Emulator;
  const gate = new Gate(() => emu.url);
  let listener: net.Server;
  let provider: any;
  let controller: any;
  let shutdowns = 0;

  before(async () => {
    emu = await startEmulator({});
    await gate.start();
  });
  after(async () => {
    await gate.stop();
    await emu.close();
  });
  beforeEach(async () => {
    listener = net.createServer();
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const { port } = serve(grpc.ServerCredentials.createInsecure(), newFace(), () => void shutdowns++, listener);
    provider = new loaded.tfplugin6.Provider(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    controller = new loaded.plugin.GRPCController(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  });
  afterEach(async () => {
    provider.close();
    controller.close();
    listener.close();
    await resetSharedSessions();
  });

  const configure = async (values: Record<string, TfValue>): Promise<void> => {
    const r = await _unary(provider, "ConfigureProvider", { terraform_version: "1.10.0", config: providerBlock({ base_url: gate.url, ...values }) });
    assert.equal(said(r), "");
  };
  const serverId = async (): Promise<string> => {
    const client = createClient({ baseUrl: emu.url, apiKey: API_KEY });
    try {
      const servers = await client.dnsServers.list();
      return servers[0]?.id ?? (await client.dnsServers.create({ name: "Home" })).id;
    } finally {
      await client.close();
    }
  };

  it("a refresh waiting on a 429 with a long Retry-After ends with 'stopped' as soon as StopProvider is answered", async () => {
    await configure({ api_key: API_KEY });
    const client = createClient({ baseUrl: emu.url, apiKey: API_KEY });
    const made = await client.devices.create({ name: "Phone", device_type: "ANDROID" as never, dns_server_id: await serverId() });
    await client.close();
    const throttled = gate.next("429", (method, path) => method === "GET" && path.includes(made.id));
    const read = _unary(provider, "ReadResource", { type_name: "dnsaccount_device", current_state: dynamic({ id: made.id, name: "Phone", device_type: "ANDROID", dns_server_id: made.dns_server_id }, device.shape) });
    await throttled; // the client now sleeps 50 s before asking again
    assert.equal((await _unary(provider, "StopProvider")).Error, "");
    const r = await read;
    assert.match(said(r), /^ERROR: Reading dnsaccount_device failed: .*stopped: Stopped before/m);
    assert.equal(readDynamic(r.new_state) !== null, true, "the state is kept as it was");
  });

  it("a plan whose credential check hangs ends with 'stopped'; the request in flight is cut off", async () => {
    await configure({ api_key: API_KEY });
    const hung = gate.next("hold", (method, path) => method === "GET" && /\/account\/limits$/.test(path));
    const planned = { id: TF_UNKNOWN, name: "Tablet", device_type: "ANDROID", dns_server_id: await serverId() } as Record<string, TfValue>;
    const plan = _unary(provider, "PlanResourceChange", {
      type_name: "dnsaccount_device",
      prior_state: dynamic(null, device.shape),
      proposed_new_state: dynamic(planned, device.shape),
      config: dynamic({ ...planned, id: null }, device.shape),
    });
    const held = await hung;
    assert.equal((await _unary(provider, "StopProvider")).Error, "");
    assert.match(said(await plan), /^ERROR: Planning the change failed: .*stopped: Stopped before/m);
    await held.abandoned; // the GET was cut off, not waited for
  });

  it("a create already sent is let finish and recorded: its later step is not sent, and the device is kept as a partial create", async () => {
    await configure({ api_key: API_KEY });
    const dnsServerId = await serverId();
    const posted = gate.next("hold", (method, path) => method === "POST" && /\/devices$/.test(path));
    const config = { id: null, name: "Laptop", device_type: "WINDOWS", dns_server_id: dnsServerId, settings: { protection_enabled: false, detect_doh_auth_only: null } } as Record<string, TfValue>;
    const apply = _unary(provider, "ApplyResourceChange", {
      type_name: "dnsaccount_device",
      prior_state: dynamic(null, device.shape),
      planned_state: dynamic({ ...config, id: TF_UNKNOWN }, device.shape),
      config: dynamic(config, device.shape),
    });
    const held = await posted;
    assert.equal((await _unary(provider, "StopProvider")).Error, "");
    held.release();
    const r = await apply;
    const state = readDynamic(r.new_state) as Record<string, TfValue>;
    const client = createClient({ baseUrl: emu.url, apiKey: API_KEY });
    const laptops = (await client.devices.list()).filter((d) => d.name === "Laptop");
    await client.close();
    assert.equal(laptops.length, 1, `the service made the device: ${said(r)}`);
    assert.equal(state.id, laptops[0]!.id, "the state records it: nothing is orphaned");
    assert.equal(laptops[0]!.settings.protection_enabled, true, "its settings (a PUT after the stop) were not sent");
    assert.match(said(r), /^ERROR: Creating dnsaccount_device failed: /m);
    assert.match(said(r), /stopped/);
  });

  it("a call waiting on a password login ends with 'stopped'; the login finishes and Shutdown revokes its refresh token", async () => {
    await configure({ username: USERNAME, password: PASSWORD });
    const login = gate.next("hold", (method, path) => method === "POST" && /\/oauth_token$/.test(path));
    const client = createClient({ baseUrl: emu.url, apiKey: API_KEY });
    const made = await client.devices.create({ name: "Watch", device_type: "ANDROID" as never, dns_server_id: await serverId() });
    await client.close();
    const read = _unary(provider, "ReadResource", { type_name: "dnsaccount_device", current_state: dynamic({ id: made.id, name: "Watch", device_type: "ANDROID", dns_server_id: made.dns_server_id }, device.shape) });
    const held = await login;
    assert.equal((await _unary(provider, "StopProvider")).Error, "");
    assert.match(said(await read), /^ERROR: Reading dnsaccount_device failed: .*stopped: Stopped before/m);
    // The login was not cut off: it is answered, and its tokens stay with the session.
    const grants = emu.stats.passwordGrants;
    const answered = new Promise<void>((resolve) => held.abandoned.then(resolve));
    held.release();
    await answered;
    assert.equal(emu.stats.passwordGrants, grants + 1);
    emu.resetStats();
    const before = emu.requests.length;
    await _unary(controller, "Shutdown");
    await revokeMintedNow(5_000); // what main.ts's Shutdown does before the process exits
    const revokes = emu.requests.slice(before).filter((q) => /revoke_token$/.test(q.path));
    assert.equal(revokes.length, 1, "the refresh token the stopped login minted is revoked");
  });
});
