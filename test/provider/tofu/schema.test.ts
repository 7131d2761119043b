import assert from "node:assert/strict";
import { programNames, snake, type TfAttribute, type TfBlock, type TfSchema, terraformSchema } from "../../../provider/tofu/schema";

const attr = (schema: TfSchema | { attributes: TfAttribute[] }, name: string): TfAttribute => {
  const attributes = "block" in schema ? schema.block.attributes : schema.attributes;
  const found = attributes.find((a) => a.name === name);
  assert.ok(found, `no attribute ${name} in ${attributes.map((a) => a.name).join(", ")}`);
  return found;
};
const block = (parent: TfSchema | TfBlock, name: string, nesting: "SINGLE" | "GROUP" = "SINGLE"): TfBlock => {
  const types = "block" in parent ? parent.block.block_types : parent.block_types;
  const found = types.find((b) => b.type_name === name);
  assert.ok(found, `no block ${name} in ${types.map((b) => b.type_name).join(", ")}`);
  assert.equal(found.nesting, nesting, name);
  assert.deepEqual([found.min_items, found.max_items], [0, 0], "a group block takes no item counts");
  return found.block;
};
/** Every attribute of a block, at any depth, with its path. */
const everyAttribute = (b: TfBlock, path = ""): [string, TfAttribute][] => [
  ...b.attributes.map((a): [string, TfAttribute] => [`${path}${a.name}`, a]),
  ...b.block_types.flatMap((t) => everyAttribute(t.block, `${path}${t.type_name}.`)),
];
const names = (schema: TfSchema): string[] => schema.block.attributes.map((a) => a.name);
const type = (a: TfAttribute): unknown => JSON.parse(a.type!.toString());
const mode = (a: TfAttribute): string => [a.required && "required", a.optional && "optional", a.computed && "computed"].filter(Boolean).join("+");

/**
 * Issue 34: the OpenTofu face's schema comes from the one package schema (provider/schema/schema.json):
 * names in snake_case, resources `dnsaccount_*`, and no password, MFA code or API key on a resource (tofu
 * stores a resource's attributes in state).
 */
describe("OpenTofu face: the schema generated from the package schema", () => {
  const schema = terraformSchema();

  it("snake_case names: words at capitals, digits with the word before them", () => {
    assert.equal(snake("blockTtlSeconds"), "block_ttl_seconds");
    assert.equal(snake("DedicatedIpv4"), "dedicated_ipv4");
    assert.equal(snake("dnsOverHttpsUrl"), "dns_over_https_url");
    assert.equal(snake("DnsServer"), "dns_server");
    assert.equal(snake("getParentalControlCategories"), "get_parental_control_categories");
  });

  it("four resources and four data sources, named as the issue says", () => {
    assert.deepEqual(Object.keys(schema.resources).sort(), ["dnsaccount_dedicated_ipv4", "dnsaccount_device", "dnsaccount_dns_server", "dnsaccount_token"]);
    assert.deepEqual(Object.keys(schema.dataSources).sort(), ["dnsaccount_account_limits", "dnsaccount_filter_lists", "dnsaccount_parental_control_categories", "dnsaccount_web_services"]);
  });

  it("the provider block has the issue's attributes, optional, secrets sensitive", () => {
    for (const name of ["base_url", "api_key", "username", "password", "mfa_token", "refresh_token", "profile", "credential_command", "allow_insecure_http"]) {
      assert.equal(mode(attr(schema.provider, name)), "optional", name);
    }
    for (const name of ["api_key", "password", "mfa_token", "refresh_token"]) assert.equal(attr(schema.provider, name).sensitive, true, name);
    for (const name of ["base_url", "username", "profile"]) assert.equal(attr(schema.provider, name).sensitive, false, name);
    assert.equal(type(attr(schema.provider, "allow_insecure_http")), "bool");
  });

  it("no resource or data source carries a password, MFA code or API key; credentials hold a base URL and a refresh token only, sensitive", () => {
    for (const s of [...Object.values(schema.resources), ...Object.values(schema.dataSources)]) {
      // Every attribute and block name, at any depth.
      const all = JSON.stringify(s.block, (k, v: unknown) => (k === "type" || k === "description" ? undefined : v));
      for (const forbidden of ["password", "mfa_token", "api_key", "credential_command"]) {
        assert.ok(!all.includes(`"name":"${forbidden}"`) && !all.includes(`"type_name":"${forbidden}"`), `${forbidden} in ${all}`);
      }
      assert.match(all, /"name":"refresh_token"|"name":"id"/, "the walk sees names");
      // A username is no input anywhere; a Token says which user it is of (computed).
      assert.ok(!/"name":"username","description_kind":"PLAIN","required":(true|false),"optional":true/.test(all), `username as an input in ${all}`);
    }
    assert.equal(mode(attr(schema.resources["dnsaccount_token"]!, "username")), "computed", "the Token's user, of the provider's login");
    const credentials = block(schema.resources["dnsaccount_device"]!, "credentials");
    assert.deepEqual(credentials.attributes.map((a) => [a.name, a.sensitive, mode(a)]).sort(), [["base_url", false, "optional"], ["refresh_token", true, "optional"]]);
    assert.deepEqual(block(schema.dataSources["dnsaccount_filter_lists"]!, "credentials").attributes.map((a) => a.name).sort(), ["base_url", "refresh_token"]);
  });

  it("input objects are blocks (a misspelled argument inside is refused); their object fields are blocks too", () => {
    const server = schema.resources["dnsaccount_dns_server"]!;
    assert.ok(!names(server).includes("settings"), "settings is not an attribute");
    const settings = block(server, "settings", "GROUP");
    assert.equal(type(attr(settings, "block_ttl_seconds")), "number");
    assert.deepEqual(type(attr(settings, "blocked_services")), ["list", "string"]);
    const rules = block(settings, "user_rules", "GROUP");
    assert.deepEqual(type(attr(rules, "rules")), ["list", "string"]);
    const monday = block(block(block(settings, "parental_control", "GROUP"), "schedule", "GROUP"), "monday", "GROUP");
    assert.deepEqual(monday.attributes.map((a) => a.name).sort(), ["from", "to"]);
    assert.equal(mode(attr(schema.resources["dnsaccount_dns_server"]!, "effective_settings")), "computed", "an output object stays a computed attribute");
    assert.equal(attr(server, "effective_settings").nested_type?.nesting, "SINGLE");
  });

  it("settings, which the service holds too, are group blocks at every depth whose every argument is optional and computed (a required one, a blocking mode's mode, too); credentials stay a single block of optional arguments", () => {
    for (const type of ["dnsaccount_dns_server", "dnsaccount_device"]) {
      const settings = block(schema.resources[type]!, "settings", "GROUP");
      const all = everyAttribute(settings);
      assert.ok(all.length > (type === "dnsaccount_device" ? 1 : 40), `${type}: ${all.length} settings`);
      for (const [path, a] of all) assert.equal(mode(a), "optional+computed", `${type} settings.${path}`);
      assert.equal(block(schema.resources[type]!, "credentials", "SINGLE").attributes.every((a) => mode(a) === "optional"), true);
    }
    const server = block(schema.resources["dnsaccount_dns_server"]!, "settings", "GROUP");
    assert.equal(mode(attr(block(server, "blocking_mode", "GROUP"), "mode")), "optional+computed");
    assert.equal(mode(attr(block(block(server, "safe_browsing", "GROUP"), "blocking_mode", "GROUP"), "mode")), "optional+computed");
    for (const s of Object.values(schema.dataSources)) for (const b of s.block.block_types) assert.equal(b.nesting, "SINGLE", b.type_name);
    for (const type of ["dnsaccount_token", "dnsaccount_dedicated_ipv4"]) for (const b of schema.resources[type]!.block.block_types) assert.equal(b.nesting, "SINGLE", `${type} ${b.type_name}`);
  });

  it("every snake_case name leads back to one program name", () => {
    const back = programNames();
    assert.equal(back.get("dns_server_id"), "dnsServerId");
    assert.equal(back.get("block_ttl_seconds"), "blockTtlSeconds");
    assert.equal(back.get("dns_over_https_with_auth_url"), "dnsOverHttpsWithAuthUrl");
    for (const [tf, program] of back) assert.equal(snake(program), tf);
  });

  it("inputs the service also fills are optional and computed, echoed ones optional, outputs computed, each resource has an id", () => {
    const device = schema.resources["dnsaccount_device"]!;
    assert.equal(mode(attr(device, "name")), "optional+computed");
    assert.equal(mode(attr(device, "dns_server_id")), "optional+computed");
    assert.equal(mode(attr(device, "device_id")), "computed");
    assert.equal(mode(attr(device, "id")), "computed");
    assert.equal(type(attr(device, "device_type")), "string", "an enum is a string");
    assert.deepEqual(type(attr(device, "doh_password_keepers")), ["map", "string"]);
    const withAuth = attr(device, "dns_addresses_with_auth");
    assert.equal(withAuth.sensitive, true, "the addresses that embed the DoH password");
    assert.ok(withAuth.nested_type!.attributes.every((a) => mode(a) === "computed"));
    assert.equal(mode(attr(device, "adopt")), "optional", "what the outputs only echo is not computed");
    assert.equal(mode(attr(device, "doh_password_keepers")), "optional");
    assert.equal(mode(attr(device, "delete_on_destroy")), "optional+computed");
    const token = schema.resources["dnsaccount_token"]!;
    for (const name of ["access_token", "refresh_token"]) assert.equal(attr(token, name).sensitive, true, name);
    assert.deepEqual(names(token).filter((n) => ["keepers", "rotation_period_seconds", "revoke_on_delete"].includes(n)).sort(), ["keepers", "revoke_on_delete", "rotation_period_seconds"]);
  });

  it("a list of objects is a nested LIST attribute, computed in a data source", () => {
    const lists = attr(schema.dataSources["dnsaccount_filter_lists"]!, "filter_lists");
    assert.equal(lists.nested_type?.nesting, "LIST");
    assert.equal(mode(lists), "computed");
    assert.ok(lists.nested_type!.attributes.some((a) => a.name === "filter_id"));
  });
});
