import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { tokenBodySchema } from "../../../sdk/auth/token-response";
import { accountLimitsSchema } from "../../../sdk/client/model";
import { warmValidators } from "../../../sdk/client/warm";

const run = promisify(execFile);

describe("warmValidators (zod compiled before a bundle's code cache is written, issue 35 §3)", () => {
  it("runs every first-call validator on an answer it accepts: the token body, the limits, the address listing, a device, an error", () => {
    // A sample the validator refuses would warm only the refusal's path: the count says each was accepted.
    assert.equal(warmValidators(), 5);
  });

  it("loads zod, which nothing else of the SDK loads before its first validation", async () => {
    const sdk = require.resolve("../../../sdk");
    const warm = require.resolve("../../../sdk/client/warm");
    const code = `const zod = () => Object.keys(require.cache).some((f) => /[\\\\/]node_modules[\\\\/]zod[\\\\/]/.test(f));
      require(${JSON.stringify(sdk)}); const a = zod(); require(${JSON.stringify(warm)}).warmValidators(); console.log(JSON.stringify([a, zod()]));`;
    const { stdout } = await run(process.execPath, ["-e", code]);
    assert.deepEqual(JSON.parse(stdout), [false, true]);
  });

  it("changes no answer: a warmed validator still refuses what it refused", () => {
    warmValidators();
    const limits = accountLimitsSchema().safeParse({ devices: { limit: 1, used: "1" } });
    assert.equal(limits.success, false);
    const token = tokenBodySchema().safeParse({ access_token: "a\nb", token_type: "bearer", expires_in: 60 });
    assert.equal(token.success, false);
    assert.deepEqual(token.success ? [] : token.error.issues.map((i) => i.path.join(".")), ["access_token"]);
  });
});
