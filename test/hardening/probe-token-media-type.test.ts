import assert from "node:assert/strict";
import { request } from "undici";
import { _useEmulator, USER } from "../support/helpers";

/**
 * The emulator's new 415 for a non-form token body (issue 22 §5) compared the Content-Type header
 * case-sensitively, so a client sending a form with the type spelled in capitals (media types are
 * case-insensitive, RFC 9110 §8.3.1) was told its body type is unsupported; and any type that merely
 * began with the form's name (`application/x-www-form-urlencodedx`) was read as a form.
 */
describe("probe: the emulator's token endpoint reads the media type as HTTP defines it", () => {
  const emu = _useEmulator();

  async function post(type: string): Promise<number> {
    const body = new URLSearchParams({ grant_type: "password", ...USER }).toString();
    const res = await request(`${emu().url}/oapi/v1/oauth_token`, { method: "POST", headers: { "content-type": type }, body });
    await res.body.dump();
    return res.statusCode;
  }

  it("takes a form whatever the case of its media type, with parameters", async () => {
    for (const type of ["Application/X-WWW-Form-URLEncoded", "APPLICATION/X-WWW-FORM-URLENCODED; charset=UTF-8", "application/x-www-form-urlencoded ; charset=utf-8"]) {
      assert.equal(await post(type), 200, type);
    }
  });

  it("revoke reads a form whose media type is in capitals (the token is revoked)", async () => {
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const issued = await request(`${emu().url}/oapi/v1/oauth_token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form({ grant_type: "password", ...USER }) });
    const { refresh_token: refreshToken } = (await issued.body.json()) as { refresh_token: string };
    const revoked = await request(`${emu().url}/oapi/v1/revoke_token`, { method: "POST", headers: { "content-type": "Application/X-WWW-Form-URLEncoded" }, body: form({ token: refreshToken }) });
    await revoked.body.dump();
    assert.equal(revoked.statusCode, 200);
    const again = await request(`${emu().url}/oapi/v1/oauth_token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form({ grant_type: "refresh_token", refresh_token: refreshToken }) });
    await again.body.dump();
    assert.equal(again.statusCode, 401, "the refresh token was revoked");
  });

  it("answers 415 to a type that only starts like the form's", async () => {
    assert.equal(await post("application/x-www-form-urlencodedx"), 415);
  });
});
