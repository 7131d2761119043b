import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { KEPT_WARNING } from "../../provider/dedicated-ipv4/lifecycle";
import { parsePluginArgs } from "../../provider/plugin/args";
import { _grpcPieces, connectProvider } from "../support/engine/rpc-client";
import { _spawnProvider, _stopProvider } from "../support/engine/provider-host";
import { _cleanEnv, _closeAll, _repoRoot } from "../support/helpers";

/* eslint-disable @typescript-eslint/no-explicit-any -- generated gRPC classes are untyped here */

const PULUMI_DIR = path.join(_repoRoot(), "node_modules", "@pulumi", "pulumi");
/** The plugin's two faces in this checkout: the npm bin (bundle) and start() unbundled (the executable's entry). */
const FACES = {
  "the npm bin": path.join(_repoRoot(), "dist", "provider", "plugin", "bin.js"),
  "main.js (unbundled)": path.join(_repoRoot(), "dist", "provider", "plugin", "main.js"),
};

/** A stand-in engine: its Engine.Log service, resolving `logged(text)` when a message containing `text` arrives. */
async function standInEngine(): Promise<{ address: string; logged(text: string): Promise<string>; close(): Promise<void> }> {
  const { grpc, engineServices, empty } = _grpcPieces(PULUMI_DIR);
  const messages: string[] = [];
  const waiting: { text: string; resolve(m: string): void }[] = [];
  const server = new grpc.Server();
  server.addService(engineServices.EngineService, {
    log: (call: any, cb: any) => {
      const message = call.request.getMessage() as string;
      messages.push(message);
      for (const w of waiting.filter((x) => message.includes(x.text))) w.resolve(message);
      cb(null, new empty.Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err: Error | null, p: number) => (err ? reject(err) : resolve(p))));
  return {
    address: `127.0.0.1:${port}`,
    logged: (text) => {
      const seen = messages.find((m) => m.includes(text));
      return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({ text, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}

/** `promise`, or a rejection naming `what` once `ms` passed (a bound on an event, not a delay). */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

/**
 * The plugin's command line as the engine writes it (`[--logtostderr] [-v=N] [--tracing <endpoint>]
 * <engine-address>`; pkg/resource/plugin buildPluginArguments), read as Pulumi's Go providers read it
 * (Go's flag syntax): under `pulumi --tracing` the engine's address is the last argument, not the first
 * one without a dash (issue 32).
 */
describe("the plugin's arguments, as the engine passes them", function () {
  this.timeout(60_000);

  it("reads the engine's flags and its address in every form Go's flag package takes", () => {
    const cases: [string[], ReturnType<typeof parsePluginArgs>][] = [
      [["127.0.0.1:5"], { engineAddress: "127.0.0.1:5", logToStderr: false, verbose: 0 }],
      [["--tracing", "tcp://127.0.0.1:4000", "127.0.0.1:5"], { engineAddress: "127.0.0.1:5", tracing: "tcp://127.0.0.1:4000", logToStderr: false, verbose: 0 }],
      [["--logtostderr", "-v=9", "--tracing", "file:///tmp/up.trace", "127.0.0.1:5"], { engineAddress: "127.0.0.1:5", tracing: "file:///tmp/up.trace", logToStderr: true, verbose: 9 }],
      [["-tracing=tcp://h:1", "-logtostderr=false", "--v", "3", "127.0.0.1:5"], { engineAddress: "127.0.0.1:5", tracing: "tcp://h:1", logToStderr: false, verbose: 3 }],
      [["--alsologtostderr", "--vmodule=x=2", "--", "127.0.0.1:5"], { engineAddress: "127.0.0.1:5", logToStderr: false, verbose: 0 }],
      [["--", "-odd-but-an-address"], { engineAddress: "-odd-but-an-address", logToStderr: false, verbose: 0 }],
      [[], { logToStderr: false, verbose: 0 }],
    ];
    for (const [argv, expected] of cases) assert.deepEqual(parsePluginArgs(argv), expected, argv.join(" "));
  });

  it("refuses what a Go provider refuses, naming the flag (never a value)", () => {
    const cases: [string[], string, RegExp][] = [
      [["--otel-endpoint", "http://collector", "127.0.0.1:5"], "--otel-endpoint", /^unknown flag --otel-endpoint /],
      [["--tracing"], "--tracing", /^--tracing needs a value$/],
      [["-v=loud", "127.0.0.1:5"], "-v", /^-v takes a level/],
      [["--logtostderr=maybe", "127.0.0.1:5"], "--logtostderr", /^--logtostderr takes true or false$/],
      [["---tracing", "x"], "argument 1", /^bad flag syntax in argument 1$/],
      [["127.0.0.1:5", "127.0.0.1:6"], "engine-address", /one argument after its flags/],
    ];
    for (const [argv, field, message] of cases) {
      assert.throws(
        () => parsePluginArgs(argv),
        (e: Error & { code?: string; field?: string }) => {
          assert.equal(e.code, "invalid_config");
          assert.equal(e.field, field);
          assert.match(e.message, message);
          for (const value of ["http://collector", "loud", "maybe", "127.0.0.1:6"]) assert.ok(!e.message.includes(value), `no value in: ${e.message}`);
          return true;
        },
        argv.join(" "),
      );
    }
  });

  for (const [face, bin] of Object.entries(FACES)) {
    it(`${face}: started as under \`pulumi --logflow -v=9 --tracing\`, its warnings reach the engine named by the last argument`, async () => {
      const engine = await standInEngine();
      // The engine's own order: logging flags, then --tracing and its endpoint, then the engine's address.
      const spawned = await _spawnProvider(process.execPath, [bin, "--logtostderr", "-v=9", "--tracing", "tcp://127.0.0.1:9", engine.address], { cwd: _repoRoot(), env: _cleanEnv() });
      const rpc = connectProvider(PULUMI_DIR, spawned.port);
      try {
        // Deleting an address the program allocated warns that it stays allocated, and calls nothing.
        await rpc.delete("198.51.100.7", "urn:pulumi:dev::p::dns-account:index:DedicatedIpv4::a", { ip: "198.51.100.7" });
        assert.equal(await within(15_000, "the warning at the engine", engine.logged("stays allocated")), KEPT_WARNING);
        assert.doesNotMatch(spawned.output(), /stays allocated/, "the warning went to the engine, not to stderr");
      } finally {
        await _closeAll(() => rpc.close(), () => _stopProvider(spawned.child), () => engine.close());
      }
    });
  }

  it("an unknown flag ends the plugin before it prints a port, the flag named on stderr", async () => {
    const child = spawn(process.execPath, [FACES["main.js (unbundled)"], "--otel-endpoint", "http://collector", "127.0.0.1:5"], { env: _cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    assert.equal(code, 1);
    assert.equal(stdout, "");
    assert.match(stderr, /^pulumi-resource-dns-account: unknown flag --otel-endpoint /);
    assert.doesNotMatch(stderr, /collector/);
  });
});
