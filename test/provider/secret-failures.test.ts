import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { SETTINGS, unknownKeys } from "../../provider/shared/config-keys";
import { SECRET_BEARING, secretSafeFailures } from "../../provider/shared/lifecycle";
import { _repoRoot } from "../support/helpers";

type Spec = { secret?: boolean };
type Schema = {
  config: { variables: Record<string, Spec> };
  resources: Record<string, { inputProperties?: Record<string, Spec> }>;
};

const schema = JSON.parse(readFileSync(path.join(_repoRoot(), "provider", "schema", "schema.json"), "utf8")) as Schema;

/**
 * Issue 32 §2 without the engine: which properties hold secrets (held against the schema), and what a
 * failure naming one becomes. The engine prints the value of the property a failure names; these
 * failures name none, so it prints nothing of theirs (test/engine/check-failure-secrets.test.ts runs
 * the real engine on them).
 */
describe("check failures: never a property whose value holds a secret", () => {
  it("SECRET_BEARING holds every secret input of every resource, every secret configuration key, and credentials", () => {
    const secrets = new Set<string>(["credentials"]);
    for (const r of Object.values(schema.resources)) for (const [k, v] of Object.entries(r.inputProperties ?? {})) if (v.secret) secrets.add(k);
    for (const [k, v] of Object.entries(schema.config.variables)) if (v.secret) secrets.add(k);
    for (const s of secrets) assert.ok(SECRET_BEARING.has(s), `${s} is secret-bearing`);
    // Every resource property that holds credentials is one of them.
    for (const [type, r] of Object.entries(schema.resources)) {
      for (const [k, v] of Object.entries(r.inputProperties ?? {})) {
        if (JSON.stringify(v).includes("Credentials")) assert.ok(SECRET_BEARING.has(k), `${type}.${k} holds credentials`);
      }
    }
  });

  it("a failure on a secret-bearing property (or a path inside one, or one that arrived secret) names none; its path moves into the reason", () => {
    const out = secretSafeFailures(
      [
        { property: "credentials", reason: "base_url_conflict: two origins" },
        { property: "credentials.refreshToken", reason: "must be a string" },
        { property: "password", reason: "password: give password or refreshToken, not both" },
        { property: "apiKey", reason: "apiKey must be a string" },
        { property: "name", reason: "name is required" },
        { property: "settings.userRules.rules[3]", reason: "not a rule" },
        { property: "mine", reason: "secret here" },
      ],
      ["mine"],
    );
    assert.deepEqual(out, [
      { property: "", reason: "credentials: base_url_conflict: two origins" },
      { property: "", reason: "credentials.refreshToken: must be a string" },
      { property: "", reason: "password: give password or refreshToken, not both" },
      { property: "", reason: "apiKey must be a string" },
      { property: "name", reason: "name is required" },
      { property: "settings.userRules.rules[3]", reason: "not a rule" },
      { property: "", reason: "mine: secret here" },
    ]);
  });

  it("the provider's settings are the schema's configuration keys; a misspelled one is found with the key it meant", () => {
    assert.deepEqual([...SETTINGS].sort(), Object.keys(schema.config.variables).sort());
    assert.deepEqual(unknownKeys({ apikey: "x", ttl: "60", apiKey: "y", version: "1.0.0", refreshtoken: "r", pasword: "p" }), [
      { key: "apikey", meant: "apiKey" },
      { key: "ttl" },
      { key: "refreshtoken", meant: "refreshToken" },
      { key: "pasword", meant: "password" },
    ]);
  });
});
