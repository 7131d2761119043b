/**
 * A pass-through in front of the plugin that records the raw bytes the engine and the plugin exchange.
 *
 * Run as the plugin itself (`node wire-recorder.js <real-plugin> <engine-address>`, from a small shell
 * script named `pulumi-resource-dns-account` put first on PATH): it starts the real plugin as its child
 * with the same arguments and environment, reads its port, serves Pulumi's ResourceProvider service on a
 * port of its own with identity (de)serializers (every message stays the Buffer that came off the wire)
 * and forwards each unary call unchanged, request and answer, metadata and errors included. So the engine
 * starts, drives and stops it exactly as it would the plugin: one process per command, stopped with
 * SIGINT to its process group (the child is in that group too).
 *
 * Each finished call is appended at once to `$WIRE_RECORD_DIR/<pid>.jsonl`, one line:
 * `{ pid, parent, seq, method, request?, response?, error? }`, the bytes in base64. Only the calls whose bytes a
 * test reads keep them: Check (request and answer) and Create (request). No other call's bytes are
 * written, so no secret is ever on disk: CheckConfig and Configure carry the API key, and the answers of
 * Create and Read a device's DoH password.
 */
import { spawn } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { createInterface } from "node:readline";

/* eslint-disable @typescript-eslint/no-explicit-any -- grpc-js is loaded from @pulumi/pulumi's folder, untyped here */

/** One recorded call, as a line of the record file. */
export interface WireRecord {
  pid: number;
  /** The name of the process that started this one (Linux `/proc/<ppid>/comm`; empty elsewhere). */
  parent: string;
  /** The call's place among this process's finished calls, from 1. */
  seq: number;
  /** The method's short name (`Check`, `Create`, …). */
  method: string;
  /** The request's bytes, base64 (Check and Create only). */
  request?: string;
  /** The answer's bytes, base64 (Check only). */
  response?: string;
  /** The gRPC status code of a failed call. */
  error?: number;
}

const KEEP_REQUEST = new Set(["Check", "Create"]);
const KEEP_RESPONSE = new Set(["Check"]);

function main(): void {
  const [plugin, ...args] = process.argv.slice(2);
  const dir = process.env.WIRE_RECORD_DIR;
  if (!plugin || !dir) {
    process.stderr.write("wire-recorder: usage: WIRE_RECORD_DIR=<dir> node wire-recorder.js <plugin> [args...]\n");
    process.exit(2);
  }
  const file = path.join(dir, `${process.pid}.jsonl`);
  const parent = parentName();
  const req = createRequire(require.resolve("@pulumi/pulumi/package.json"));
  const grpc = req("@grpc/grpc-js");
  const service = req("./proto/provider_grpc_pb.js").ResourceProviderService as Record<string, { path: string; responseStream: boolean }>;

  const child = spawn(plugin, args, { stdio: ["ignore", "pipe", "inherit"] });
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  // The group's SIGINT reaches the child too: this process ends when it does.
  process.on("SIGINT", () => undefined);
  process.on("SIGTERM", () => child.kill("SIGTERM"));
  const lines = createInterface({ input: child.stdout! });
  lines.once("line", (line) => {
    lines.on("line", () => undefined);
    const target = `127.0.0.1:${Number(line.trim())}`;
    const identity = (b: Buffer): Buffer => b;
    const options = { "grpc.max_receive_message_length": 400 * 1024 * 1024, "grpc.max_send_message_length": 400 * 1024 * 1024 };
    const client = new grpc.Client(target, grpc.credentials.createInsecure(), options);
    const definition: Record<string, unknown> = {};
    const implementation: Record<string, unknown> = {};
    let seq = 0;
    for (const [name, method] of Object.entries(service)) {
      if (method.responseStream) continue; // List, the one streaming method, is never sent to this package
      const short = method.path.split("/").pop()!;
      definition[name] = {
        path: method.path,
        requestStream: false,
        responseStream: false,
        requestSerialize: identity,
        requestDeserialize: identity,
        responseSerialize: identity,
        responseDeserialize: identity,
      };
      implementation[name] = (call: { request: Buffer; metadata: any }, callback: (err: unknown, value?: Buffer, trailer?: unknown) => void): void => {
        client.makeUnaryRequest(method.path, identity, identity, call.request, call.metadata.clone(), (err: any, res?: Buffer) => {
          const record: WireRecord = { pid: process.pid, parent, seq: ++seq, method: short };
          if (KEEP_REQUEST.has(short)) record.request = call.request.toString("base64");
          if (err) record.error = err.code;
          else if (KEEP_RESPONSE.has(short)) record.response = res!.toString("base64");
          appendFileSync(file, `${JSON.stringify(record)}\n`);
          if (err) callback({ code: err.code, details: err.details, metadata: err.metadata });
          else callback(null, res);
        });
      };
    }
    const server = new grpc.Server(options);
    server.addService(definition, implementation);
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err: Error | null, port: number) => {
      if (err) {
        process.stderr.write(`wire-recorder: ${err.message}\n`);
        child.kill("SIGTERM");
        return;
      }
      process.stdout.write(`${port}\n`);
    });
  });
}

function parentName(): string {
  try {
    return readFileSync(`/proc/${process.ppid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
}

main();
