import assert from "node:assert/strict";
import { inspect } from "node:util";
import { ConfigError, defaultCredentialChain, resolveCredential, TokenStore } from "../../../sdk";
import { _assertNoSecrets, _rejects } from "../../support/helpers";
import { _useTempDirs } from "../../support/temp";

const KEY = "chain-api-key-abcdef0123456789";

describe("the credential chain with API keys", () => {
  const tmp = _useTempDirs();
  it("DNS_ACCOUNT_API_KEY gives an API-key credential, ahead of a password in the same environment", async () => {
    const env = { DNS_ACCOUNT_API_KEY: KEY, DNS_ACCOUNT_USERNAME: "u@example.com", DNS_ACCOUNT_PASSWORD: "pw", DNS_ACCOUNT_BASE_URL: "http://127.0.0.1:9" };
    const credential = await resolveCredential(defaultCredentialChain({ env, store: new TokenStore({ dir: tmp("dns-account-chain-") }) }));
    assert.equal(credential.source, "environment");
    assert.equal(credential.baseUrl, "http://127.0.0.1:9");
    assert.equal(credential.apiKey?.(), KEY);
    const err = await _rejects(credential.token());
    assert.ok(err instanceof ConfigError);
    assert.equal(err.field, "apiKey");
    _assertNoSecrets(inspect(credential, { showHidden: true, depth: 5 }) + JSON.stringify(credential) + err.message, [KEY]);
  });

  it("a profile holding an API key gives an API-key credential", async () => {
    const store = new TokenStore({ dir: tmp("dns-account-chain-") });
    await store.put("ci", { baseUrl: "http://127.0.0.1:9", apiKey: KEY });
    const credential = await resolveCredential(defaultCredentialChain({ env: {}, store, profile: "ci" }));
    assert.equal(credential.source, "profile");
    assert.equal(credential.profile, "ci");
    assert.equal(credential.apiKey?.(), KEY);
    assert.match((await _rejects(credential.token())).message, /profile "ci" holds an API key/);
  });
});
