import assert from "node:assert/strict";
import { snake, type TfAttribute, type TfSchema, terraformSchema } from "../../../provider/tofu/schema";

const attr = (schema: TfSchema | { attributes: TfAttribute[] }, name: string): TfAttribute => {
  const attributes = "block" in schema ? schema.block.attributes : schema.attributes;
  const found = attributes.find((a) => a.name === name);
  assert.ok(found, `no attribute ${name} in ${attributes.map((a) => a.name).join(", ")}`);
  return found;
};
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
      const all = JSON.stringify(s.block.attributes.map(function walk(a: TfAttribute): unknown {
        return [a.name, a.nested_type?.attributes.map(walk)];
      }));
      for (const forbidden of ["password", "mfa_token", "api_key", "username", "credential_command"]) assert.ok(!all.includes(`"${forbidden}"`), `${forbidden} in ${all}`);
    }
    const credentials = attr(schema.resources["dnsaccount_device"]!, "credentials");
    assert.equal(credentials.sensitive, true);
    assert.deepEqual(credentials.nested_type?.attributes.map((a) => a.name).sort(), ["base_url", "refresh_token"]);
    assert.equal(attr(schema.dataSources["dnsaccount_filter_lists"]!, "credentials").nested_type?.nesting, "SINGLE");
  });

  it("inputs the service also fills are optional and computed, outputs computed, each resource has an id", () => {
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
    const settings = attr(schema.resources["dnsaccount_dns_server"]!, "settings");
    assert.equal(settings.nested_type?.nesting, "SINGLE");
    assert.equal(type(attr(settings.nested_type!, "block_ttl_seconds")), "number");
    assert.deepEqual(type(attr(settings.nested_type!, "blocked_services")), ["list", "string"]);
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
