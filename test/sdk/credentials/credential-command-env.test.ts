import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { commandSource, credentialCommandEnv } from "../../../sdk";
import { ENV_KEYS } from "../../../sdk/credentials/resolve";
import { _repoRoot } from "../../support/helpers";

/**
 * Every secret variable the package reads: the environment names of the provider configuration's secret
 * keys (from the schema, so a new secret key is covered), and the bare access token (environment only).
 */
function secretVariables(): string[] {
  const schema = JSON.parse(readFileSync(path.join(_repoRoot(), "provider", "schema", "schema.json"), "utf8")) as { config: { variables: Record<string, { secret?: boolean }> } };
  const fields = [...Object.entries(schema.config.variables).filter(([, v]) => v.secret).map(([k]) => k), "accessToken"];
  return fields.map((f) => {
    const name = (ENV_KEYS as Record<string, string>)[f];
    assert.ok(name, `${f} has an environment variable`);
    return name;
  });
}

/** No secret variable reaches the credential command, even when DNS_ACCOUNT_CREDENTIAL_COMMAND_ENV names it (issue 22 §4). */
describe("the credential command's environment never holds a secret variable", () => {
  const secrets = Object.fromEntries(secretVariables().map((name, i) => [name, `secret-${i}-ENV-8d1f3b7a`]));

  it("covers the API key, access token, refresh token, password and MFA code", () => {
    assert.deepEqual(Object.keys(secrets).sort(), ["DNS_ACCOUNT_ACCESS_TOKEN", "DNS_ACCOUNT_API_KEY", "DNS_ACCOUNT_MFA_TOKEN", "DNS_ACCOUNT_PASSWORD", "DNS_ACCOUNT_REFRESH_TOKEN"]);
  });

  it("credentialCommandEnv drops each of them, named or not, and keeps the other names", () => {
    const env = { ...secrets, PATH: "/bin", VAULT_ADDR: "https://vault.example", DNS_ACCOUNT_CREDENTIAL_COMMAND_ENV: [...Object.keys(secrets), "VAULT_ADDR", "DNS_ACCOUNT_SOME_SECRET", "DNS_ACCOUNT_NEW_KEY"].join(",") };
    const passed = credentialCommandEnv({ ...env, DNS_ACCOUNT_SOME_SECRET: "s", DNS_ACCOUNT_NEW_KEY: "k" });
    assert.deepEqual(passed, { PATH: "/bin", VAULT_ADDR: "https://vault.example" });
  });

  it("the command run by the chain sees none of them", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-cmdenv-"));
    try {
      const seen = path.join(dir, "env.txt");
      const env = {
        ...secrets,
        PATH: process.env.PATH,
        DNS_ACCOUNT_CREDENTIAL_COMMAND_ENV: Object.keys(secrets).join(","),
        DNS_ACCOUNT_CREDENTIAL_COMMAND: `env > ${JSON.stringify(seen)}; echo '{"accessToken":"cmd"}'`,
      };
      const credential = (await commandSource({ env }).load())!;
      assert.equal((await credential.token()).accessToken, "cmd");
      const text = readFileSync(seen, "utf8");
      for (const [name, value] of Object.entries(secrets)) {
        assert.ok(!new RegExp(`^${name}=`, "m").test(text), `${name} reached the command`);
        assert.ok(!text.includes(value), `${name}'s value reached the command`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
