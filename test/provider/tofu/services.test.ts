import assert from "node:assert/strict";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { LOADER_OPTIONS, PROTOCOL } from "../../../provider/tofu/protocol";
import { terraformSchema } from "../../../provider/tofu/schema";
import { type ServiceName, serviceDefinitions } from "../../../provider/tofu/services";

/* eslint-disable @typescript-eslint/no-explicit-any -- the loaded definitions are untyped */

/**
 * The face's service definitions, made with protobuf.js alone (issue 35 §3), are proto-loader's: the
 * same methods, paths and streaming, and the same bytes out and objects in for the face's messages.
 */
describe("the OpenTofu face's gRPC services without proto-loader", () => {
  const ours = serviceDefinitions();
  const loaded = grpc.loadPackageDefinition(protoLoader.fromJSON(PROTOCOL, LOADER_OPTIONS)) as any;
  const theirs: Record<ServiceName, grpc.ServiceDefinition> = {
    "tfplugin6.Provider": loaded.tfplugin6.Provider.service,
    "plugin.GRPCController": loaded.plugin.GRPCController.service,
    "plugin.GRPCStdio": loaded.plugin.GRPCStdio.service,
    "plugin.GRPCBroker": loaded.plugin.GRPCBroker.service,
    "grpc.health.v1.Health": loaded.grpc.health.v1.Health.service,
  };

  it("every service and method proto-loader defines, with the same path, streaming and original name", () => {
    assert.deepEqual(Object.keys(ours).sort(), Object.keys(theirs).sort());
    for (const [name, service] of Object.entries(theirs) as [ServiceName, grpc.ServiceDefinition][]) {
      assert.deepEqual(Object.keys(ours[name]).sort(), Object.keys(service).sort(), name);
      for (const [method, def] of Object.entries(service)) {
        const mine = ours[name][method]!;
        assert.deepEqual(
          { path: mine.path, requestStream: mine.requestStream, responseStream: mine.responseStream, originalName: mine.originalName },
          { path: def.path, requestStream: def.requestStream, responseStream: def.responseStream, originalName: def.originalName },
          `${name}/${method}`,
        );
      }
    }
  });

  it("the same bytes out and the same objects in: the whole provider schema, a diagnostic's attribute path (a oneof, an int64), an enum, bytes", () => {
    const schema = terraformSchema();
    const samples: [ServiceName, string, "request" | "response", object][] = [
      ["tfplugin6.Provider", "GetProviderSchema", "response", { provider: schema.provider, resource_schemas: schema.resources, data_source_schemas: schema.dataSources, diagnostics: [] }],
      [
        "tfplugin6.Provider",
        "ValidateResourceConfig",
        "response",
        { diagnostics: [{ severity: "ERROR", summary: "s", detail: "d", attribute: { steps: [{ attribute_name: "rules" }, { element_key_int: 3 }, { element_key_string: "k" }] } }] },
      ],
      ["tfplugin6.Provider", "ConfigureProvider", "request", { terraform_version: "1.12.6", config: { msgpack: Buffer.from([0x81, 0xa1, 0x61, 0x01]) } }],
      ["grpc.health.v1.Health", "Check", "response", { status: "SERVING" }],
    ];
    for (const [service, method, side, value] of samples) {
      const mine = ours[service][method]!;
      const def = theirs[service][method]!;
      const [serialize, deserialize, theirSerialize, theirDeserialize] =
        side === "request"
          ? [mine.requestSerialize, mine.requestDeserialize, def.requestSerialize, def.requestDeserialize]
          : [mine.responseSerialize, mine.responseDeserialize, def.responseSerialize, def.responseDeserialize];
      const bytes = serialize(value);
      assert.ok(bytes.length > 0, `${method} ${side}`);
      assert.ok(Buffer.from(bytes).equals(Buffer.from(theirSerialize(value))), `${method} ${side}: the same bytes`);
      assert.deepEqual(deserialize(Buffer.from(bytes)), theirDeserialize(Buffer.from(bytes)), `${method} ${side}: the same object`);
    }
    assert.throws(() => ours["tfplugin6.Provider"]["GetMetadata"]!.responseSerialize([] as unknown as object), /expected object/);
  });
});
