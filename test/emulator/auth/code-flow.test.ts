import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { request } from "undici";
import { startEmulator, type Emulator } from "../../../emulator";
import { USER } from "../../support/helpers";

describe("emulator: Authorization Code + PKCE (S256)", () => {
  let emu: Emulator;
  let clock = 1_000_000;
  let cookie = "";
  const redirectUri = "http://127.0.0.1:45678/callback";
  before(async () => {
    emu = await startEmulator({ now: () => clock });
    const login = await request(`${emu.url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...USER, return_to: "/oapi/v1/oauth_authorize?x=1" }).toString(),
    });
    await login.body.dump();
    cookie = String(login.headers["set-cookie"]).split(";")[0]!;
  });
  after(() => emu.close());

  const pkce = () => {
    const verifier = randomBytes(32).toString("base64url");
    return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
  };
  const authorize = async (params: Record<string, string>) => {
    const q = new URLSearchParams({ client_id: "dns-account-cli", redirect_uri: redirectUri, response_type: "code", code_challenge_method: "S256", state: "st", ...params });
    const res = await request(`${emu.url}/oapi/v1/oauth_authorize?${q}`, { headers: { cookie } });
    await res.body.dump();
    assert.equal(res.statusCode, 302);
    return new URL(String(res.headers.location));
  };
  const exchange = async (form: Record<string, string>) => {
    const res = await request(`${emu.url}/oapi/v1/oauth_token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", client_id: "dns-account-cli", redirect_uri: redirectUri, ...form }).toString(),
    });
    return { status: res.statusCode, json: (await res.body.json()) as Record<string, unknown> };
  };

  it("returns a code in the query with the state, and exchanges it once for tokens that work", async () => {
    const { verifier, challenge } = pkce();
    const back = await authorize({ code_challenge: challenge, source: "cli" });
    assert.equal(back.origin + back.pathname, redirectUri);
    assert.equal(back.searchParams.get("state"), "st");
    assert.equal(back.hash, "");
    const code = back.searchParams.get("code")!;
    const ok = await exchange({ code, code_verifier: verifier });
    assert.equal(ok.status, 200);
    assert.equal(typeof ok.json.refresh_token, "string");
    const api = await request(`${emu.url}/oapi/v1/account/limits`, { headers: { authorization: `Bearer ${ok.json.access_token}` } });
    assert.equal(api.statusCode, 200);
    await api.body.dump();
    assert.equal(emu.stats.codeGrants, 1);

    const replay = await exchange({ code, code_verifier: verifier });
    assert.equal(replay.status, 401, "API 1.15 answers a rejected code with a 401");
    assert.equal(replay.json.error, "invalid_grant");
    const refresh = await request(`${emu.url}/oapi/v1/oauth_token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: String(ok.json.refresh_token) }).toString(),
    });
    assert.equal(refresh.statusCode, 401, "a replayed code revokes what it issued");
    await refresh.body.dump();
  });

  it("refuses a wrong verifier, client, redirect URI, or an expired code", async () => {
    const cases: [string, (code: string, verifier: string) => Record<string, string>][] = [
      ["verifier", (code) => ({ code, code_verifier: pkce().verifier })],
      ["client", (code, verifier) => ({ code, code_verifier: verifier, client_id: "other" })],
      ["redirect", (code, verifier) => ({ code, code_verifier: verifier, redirect_uri: "http://127.0.0.1:45679/callback" })],
      ["short verifier", (code) => ({ code, code_verifier: "abc" })],
    ];
    for (const [name, form] of cases) {
      const { verifier, challenge } = pkce();
      const code = (await authorize({ code_challenge: challenge })).searchParams.get("code")!;
      const res = await exchange(form(code, verifier));
      assert.equal(res.status, 401, name);
      assert.equal(res.json.error_code, "invalid_grant", name);
    }
    const { verifier, challenge } = pkce();
    const code = (await authorize({ code_challenge: challenge })).searchParams.get("code")!;
    clock += 61_000;
    assert.equal((await exchange({ code, code_verifier: verifier })).status, 401, "expired");
  });

  it("requires code_challenge with S256 (plain is refused) and names missing exchange fields", async () => {
    const plain = await authorize({ code_challenge: pkce().verifier, code_challenge_method: "plain" });
    assert.equal(plain.searchParams.get("error"), "invalid_request");
    assert.equal(plain.searchParams.get("code"), null);
    const none = await authorize({});
    assert.equal(none.searchParams.get("error"), "invalid_request");
    const missing = await exchange({ code: "x" });
    assert.equal(missing.status, 400);
    assert.deepEqual((missing.json.fields as { field: string }[]).map((f) => f.field), ["code_verifier"]);
  });

  it("keeps the implicit flow: response_type=token answers in the fragment", async () => {
    const back = await authorize({ response_type: "token" });
    const fragment = new URLSearchParams(back.hash.slice(1));
    assert.ok(fragment.get("access_token"));
    assert.equal(fragment.get("state"), "st");
  });
});
