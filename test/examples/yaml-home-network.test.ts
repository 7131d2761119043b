import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { _repoRoot } from "../support/helpers";
import { PROVIDER, type Program, type Schema, problems } from "../support/yaml-program";

// js-yaml comes with mocha (and @pulumi/pulumi): no dependency of its own for one test.
const yaml = require("js-yaml") as { load(text: string): unknown };

/** examples/yaml-home-network: a Pulumi YAML program of the plugin, checked against its schema. */
describe("examples/yaml-home-network (Pulumi YAML, through the plugin)", () => {
  const root = _repoRoot();
  const schema = JSON.parse(readFileSync(path.join(root, "provider", "schema", "schema.json"), "utf8")) as Schema;
  const program = yaml.load(readFileSync(path.join(root, "examples", "yaml-home-network", "Pulumi.yaml"), "utf8")) as Program;

  it("uses only types, properties, enum values, functions and outputs the schema declares", () => {
    assert.equal((program as unknown as { runtime: string }).runtime, "yaml");
    assert.deepEqual(problems(program, schema), []);
    const types = new Set(Object.values(program.resources).map((r) => r.type));
    for (const t of ["DnsServer", "Device", "DedicatedIpv4"]) assert.ok(types.has(`dns-account:index:${t}`), t);
    assert.ok(types.has(PROVIDER), "two accounts: an explicit provider");
  });

  it("the checker catches what the schema does not declare", () => {
    const broken = structuredClone(program);
    broken.resources.laptop!.properties!.deviceType = "FRIDGE";
    broken.resources.home!.properties!.colour = "blue";
    (broken.resources.home!.properties!.settings as Record<string, unknown>).blockTtlSeconds = "sixty";
    broken.resources.router!.properties!.dnsServerId = "${home.nope}";
    broken.resources.extra = { type: "dns-account:index:Fridge" };
    assert.equal(problems(broken, schema).length, 5, problems(broken, schema).join("\n"));
  });
});
