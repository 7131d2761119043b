import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { ConfigError, createClient, issueToken, TransportError } from "../../../sdk";
import { proxyAwareAgent } from "../../../sdk/http/transport";
import { _cleanEnv, _errorText, _rejects, _repoRoot, _useEmulator, USER } from "../../support/helpers";

/** A loopback forward proxy that records what reaches it and carries nothing (it answers 502). */
async function _startProxy(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
    req.resume();
    res.writeHead(502).end();
  });
  server.on("connect", (req, socket) => {
    seen.push(`CONNECT ${req.url}`);
    socket.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** Runs `body` with proxy variables set in process.env, restoring them after. */
async function _withEnv(vars: Record<string, string>, body: () => Promise<void>): Promise<void> {
  const names = ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "NO_PROXY", "no_proxy"];
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  for (const n of names) delete process.env[n];
  Object.assign(process.env, vars);
  try {
    await body();
  } finally {
    for (const n of names) {
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
    }
  }
}

describe("proxies: HTTP(S)_PROXY never sees a loopback call or a plain-http secret", () => {
  const emu = _useEmulator({ tokenLifetimeSeconds: 3600 });
  let proxy: Awaited<ReturnType<typeof _startProxy>>;
  beforeEach(async () => {
    proxy = await _startProxy();
  });
  afterEach(() => proxy.close());

  it("a loopback base URL (127.0.0.1 or localhost) goes direct, with both proxy variables set", async () => {
    await _withEnv({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url }, async () => {
      for (const baseUrl of [emu().url, emu().url.replace("127.0.0.1", "localhost")]) {
        const client = createClient({ baseUrl, credentials: USER });
        try {
          assert.ok((await client.account.limits()).devices);
        } finally {
          await client.close();
        }
      }
      const agent = proxyAwareAgent({});
      try {
        assert.ok((await issueToken({ baseUrl: emu().url, ...USER, dispatcher: agent })).accessToken);
      } finally {
        await agent.close();
      }
    });
    assert.deepEqual(proxy.seen, []);
  });

  it("a plain-http non-loopback base URL is refused rather than sent through the proxy in clear", async () => {
    await _withEnv({ http_proxy: proxy.url }, async () => {
      const client = createClient({ baseUrl: "http://emulator.test:8787", credentials: USER, allowInsecureHttp: true, retry: { retries: 0 } });
      try {
        const err = await _rejects(client.account.limits());
        assert.ok(err instanceof ConfigError);
        assert.equal(err.field, "baseUrl");
        assert.match(err.message, /NO_PROXY/);
        assert.ok(!_errorText(err).includes(USER.password));
      } finally {
        await client.close();
      }
      const agent = proxyAwareAgent({});
      try {
        const err = await _rejects(issueToken({ baseUrl: "http://emulator.test:8787", allowInsecureHttp: true, ...USER, dispatcher: agent }));
        assert.equal(err.code, "invalid_config");
      } finally {
        await agent.close();
      }
    });
    assert.deepEqual(proxy.seen, [], "not one byte reached the proxy");
  });

  it("a failing proxy is named as the proxy (host and port, never its credentials)", async () => {
    const withAuth = proxy.url.replace("http://", "http://proxyuser:proxy-secret-pw@");
    await _withEnv({ HTTPS_PROXY: withAuth }, async () => {
      const client = createClient({ baseUrl: "https://api.example.test", credentials: { refreshToken: "rt-lowercase-secret" }, retry: { retries: 0 }, sessionOptions: { retry: { retries: 0 } } });
      try {
        const err = await _rejects(client.account.limits());
        assert.ok(err instanceof TransportError);
        assert.equal(err.code, "network");
        assert.match(err.message, new RegExp(`proxy ${proxy.url.replace("http://", "")}`));
        const text = _errorText(err);
        for (const secret of ["proxy-secret-pw", "proxyuser", "rt-lowercase-secret"]) assert.ok(!text.includes(secret), secret);
      } finally {
        await client.close();
      }
    });
    assert.ok(proxy.seen.some((s) => s.startsWith("CONNECT api.example.test:443")));
  });

  it("in a process that loaded only the SDK (as the CLI does), an https call goes through the proxy's tunnel", async () => {
    // This process has all of undici loaded by other modules; the CLI loads only the parts the SDK asks for,
    // where the proxy agent once failed before sending CONNECT ("this[kClient].connect is not a function").
    const sdk = path.join(_repoRoot(), "dist", "sdk", "index.js");
    const script = `require(${JSON.stringify(sdk)}).issueToken({ baseUrl: "https://api.example.test", username: "u@example.com", password: "pw" }).then(() => process.exit(0), (err) => { console.log(err.message); process.exit(1); });`;
    const out = await new Promise<string>((resolve) => execFile(process.execPath, ["-e", script], { env: _cleanEnv({ HTTPS_PROXY: proxy.url, NO_PROXY: "" }) }, (_err, stdout) => resolve(stdout)));
    assert.ok(proxy.seen.some((s) => s.startsWith("CONNECT api.example.test:443")), out);
    assert.match(out, new RegExp(`proxy ${proxy.url.replace("http://", "")}`));
  });
});
