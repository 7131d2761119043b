import assert from "node:assert/strict";
import { ConfigError, resolveBaseUrl } from "../../../sdk";

describe("resolveBaseUrl: a base URL with control or format characters is no address", () => {
  it("refuses C0/C1 controls, DEL, bidi and other format characters and U+2028/U+2029, which the URL parser would drop, encode or show reordered", () => {
    for (const c of ["\u0000", "\t", "\n", "\r", "\u001b", "\u007f", "\u0085", "\u009b", "\u200b", "\u200e", "\u202e", "\u2066", "\u2028", "\u2029", "\ufeff"]) {
      for (const url of [`https://api.example${c}/`, `https://api.example/v${c}1`, `${c}https://api.example`, `https://api.example${c}`]) {
        assert.throws(
          () => resolveBaseUrl(url),
          (e: unknown) => e instanceof ConfigError && e.field === "baseUrl" && e.message === '"baseUrl" must not contain control or format characters',
          JSON.stringify(url),
        );
      }
    }
  });

  it("names the URL and the way to allow http as the caller's surface says them", () => {
    const words = { name: "--base-url", insecure: "pass --allow-insecure-http" };
    assert.throws(() => resolveBaseUrl("http://emulator:8787", false, words), { field: "baseUrl", message: "--base-url uses http:// for a non-loopback host; use https:// or pass --allow-insecure-http" });
    assert.throws(() => resolveBaseUrl("ftp://x", false, words), { message: "--base-url must use https:// (or http:// for loopback)" });
    assert.throws(() => resolveBaseUrl("http://emulator:8787"), { message: '"baseUrl" uses http:// for a non-loopback host; use https:// or set allowInsecureHttp' });
    assert.equal(resolveBaseUrl("https://dns.exämple/ü/").href, "https://dns.xn--exmple-cua/%C3%BC");
  });
});
