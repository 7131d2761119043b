import assert from "node:assert/strict";
import { explain, explainWithQuota, initFailed, isNotFound } from "../../provider/shared/explain";
import { KeptError, provenGone } from "../../provider/shared/gone";
import { PartialCreateError } from "../../provider/shared/lifecycle";
import { containsUnknown, isUnknown, UNKNOWN } from "../../provider/shared/unknown";
import { callFunction, type FunctionToken, isFunction } from "../../provider/shared/functions";
import { accountClient, credentialProblem, serviceChecks } from "../../provider/shared/account-client";
import { MFA_USER, USER } from "../support/helpers";
import { issueToken, TokenStore } from "../../sdk";
import { insecureOf, type Lifecycle, type ProviderContext } from "../../provider/shared/lifecycle";
import { dynamicFace } from "../../provider/shared/dynamic-face";
import { configure as configureStack, dynamicContext } from "../../provider/shared/stack-config";
import { resetSharedSessions } from "../../sdk/client/shared-session";
import { _useTempDirs } from "../support/temp";
import { type Client, createClient, DnsAccountError, QuotaError } from "../../sdk";
import { _closeAll, _rejects, _useEmulator } from "../support/helpers";

/**
 * The provider toolkit in the test process (the resource tests reach it through provider hosts, where
 * a mutant is costly to try): unknown values, error explanation, proof that an object is gone.
 */
describe("provider toolkit: unknowns, explain, provenGone (killing mutants)", () => {
  const emu = _useEmulator();
  let client: Client;
  before(() => {
    client = createClient({ baseUrl: emu().url, apiKey: "emulator-api-key-user", retry: { retries: 0 } });
  });
  after(() => _closeAll(() => client?.close()));

  it("unknown values: the engine's marker, found at any depth of arrays and objects, nowhere else", () => {
    assert.equal(isUnknown(UNKNOWN), true);
    assert.equal(isUnknown(`${UNKNOWN} `), false);
    assert.equal(containsUnknown(UNKNOWN), true);
    assert.equal(containsUnknown({ a: [1, { b: UNKNOWN }] }), true);
    assert.equal(containsUnknown([["x"], [UNKNOWN]]), true);
    for (const known of [null, undefined, 0, "", "x", [], {}, { a: [1, { b: "c" }] }, [null]]) assert.equal(containsUnknown(known), false, JSON.stringify(known));
  });

  it("explain: action, code and message; the service's field complaints renamed, once; the field in brackets unless the message names it; a hint", () => {
    const rename = (f: string) => (f === "block_ttl_seconds" ? "settings.blockTtlSeconds" : undefined);
    const rejected = new DnsAccountError("http_400", "The API rejected the request", { status: 400, fields: [{ field: "block_ttl_seconds", errorCode: "FIELD_WRONG_VALUE" }, { field: "name", errorCode: "FIELD_REQUIRED" }] });
    const e1 = explain("Creating the DNS server failed", rejected, undefined, rename);
    assert.equal(e1.message, "Creating the DNS server failed: http_400: The API rejected settings.blockTtlSeconds (FIELD_WRONG_VALUE), name (FIELD_REQUIRED)");
    assert.equal((e1 as { code?: string }).code, "http_400");
    assert.equal(Object.keys(e1).includes("code"), false, "the code is not enumerable");
    const other = new DnsAccountError("http_400", "Too long", { fields: [{ field: "name", errorCode: "FIELD_WRONG_VALUE" }, { field: "x", errorCode: "FIELD_REQUIRED" }] });
    assert.equal(explain("Updating", other).message, "Updating: http_400: Too long [name (FIELD_WRONG_VALUE), x (FIELD_REQUIRED)]");
    const quoted = new DnsAccountError("http_400", "Proxy: The API rejected the request", { fields: [{ field: "name", errorCode: "FIELD_REQUIRED" }] });
    assert.equal(explain("Updating", quoted).message, "Updating: http_400: Proxy: The API rejected the request [name (FIELD_REQUIRED)]", "only a message that starts so is replaced");
    const withField = new DnsAccountError("invalid_config", "bad value", { field: "block_ttl_seconds" });
    assert.equal(explain("Checking", withField, "fix it", rename).message, "Checking: invalid_config: bad value (settings.blockTtlSeconds); fix it");
    assert.equal(explain("Checking", new DnsAccountError("invalid_config", "name is wrong", { field: "name" })).message, "Checking: invalid_config: name is wrong");
    assert.equal(explain("Checking", new DnsAccountError("invalid_config", "bad", { field: "name" })).message, "Checking: invalid_config: bad (name)");
    const plain = new TypeError("boom");
    assert.equal(explain("Reading", plain), plain);
    assert.equal(explain("Reading", "text").message, "Reading failed");
  });

  it("isNotFound: a DnsAccountError with status 404 only", () => {
    assert.equal(isNotFound(new DnsAccountError("http_404", "x", { status: 404 })), true);
    assert.equal(isNotFound(new DnsAccountError("http_400", "x", { status: 400 })), false);
    assert.equal(isNotFound(Object.assign(new Error("x"), { status: 404 })), false);
  });

  it("initFailed: a PartialCreateError with the explained message, the id, the outputs and the code", () => {
    const e = initFailed("Setting up the device failed", new DnsAccountError("http_503", "down", { status: 503 }), "dev-1", { a: 1 });
    assert.ok(e instanceof PartialCreateError);
    assert.equal(e.message, "Setting up the device failed: http_503: down");
    assert.equal(e.id, "dev-1");
    assert.deepEqual(e.outs, { a: 1 });
    assert.equal((e as { code?: string }).code, "http_503");
    assert.equal(Object.keys(e).includes("code"), false, "the code is not enumerable");
    assert.equal("code" in initFailed("x", new Error("y"), "i", {}), false);
  });

  it("explainWithQuota: a used-up quota says how much is used, from the account's limits; other errors as explain", async () => {
    const quota = await explainWithQuota("Creating the device failed", new QuotaError("devices"), client);
    assert.match(quota.message, /^Creating the device failed: limit_reached: .* \(devices: 0 used of \d+\)$/);
    const unknownLimit = await explainWithQuota("Creating", new QuotaError("nothing_like_it"), client);
    assert.doesNotMatch(unknownLimit.message, /used of/);
    const calls = emu().stats.apiCalls;
    const other = await explainWithQuota("Creating", new DnsAccountError("http_503", "down"), client);
    assert.equal(other.message, "Creating: http_503: down");
    assert.equal(emu().stats.apiCalls, calls, "no limits call for an error that is not a quota's");
    // Limits in another shape than numbers are left out, not printed.
    for (const q of [{ used: "3", limit: 5 }, { used: 3, limit: "5" }, { used: 3 }, { limit: 5 }]) {
      const odd = { account: { limits: async () => ({ devices: q }) } } as unknown as Client;
      assert.doesNotMatch((await explainWithQuota("Creating", new QuotaError("devices"), odd)).message, /used of/, JSON.stringify(q));
    }
    const fine = { account: { limits: async () => ({ devices: { used: 3, limit: 5 } }) } } as unknown as Client;
    assert.match((await explainWithQuota("Creating", new QuotaError("devices"), fine)).message, /\(devices: 3 used of 5\)$/);
  });

  it("provenGone: only a 404 counts; the listing must answer without the id; otherwise the state is kept, naming the host", async () => {
    const notFound = new DnsAccountError("http_404", "gone?", { status: 404 });
    const ids = (list: string[]) => async () => list;
    assert.equal(await provenGone(client, new DnsAccountError("http_500", "x", { status: 500 }), "device", "d1", ids([])), false);
    assert.equal(await provenGone(client, notFound, "device", "d1", ids(["d2"])), true);
    const listed = await _rejects(provenGone(client, notFound, "device", "d1", ids(["d1"])));
    assert.ok(listed instanceof KeptError);
    assert.equal(listed.code, "state_kept");
    assert.equal(listed.message, `the service at ${client.host} answered 404 for the device but still lists it; the state was kept`);
    const unreadable = await _rejects(provenGone(client, notFound, "device", "d1", async () => { throw new DnsAccountError("http_502", "bad gateway"); }));
    assert.equal(
      unreadable.message,
      `the service at ${client.host} answered 404 for the device, and its listing of them could not be read (http_502): ` +
        "a wrong base URL, a gateway or a proxy answers like that, so this is no proof the object is gone; the state was kept",
    );
    const foreign = await _rejects(provenGone(client, notFound, "device", "d1", async () => { throw new Error("x"); }));
    assert.match(foreign.message, /could not be read: a wrong base URL/);
  });
});

describe("provider toolkit: the package's functions in the test process (killing mutants)", () => {
  const emu = _useEmulator();
  const tmp = _useTempDirs();
  const HINT = "it takes { credentials }: an apiKey, or a Token's baseUrl and refreshToken";
  const saved: Record<string, string | undefined> = {};
  before(() => {
    // No credential of this machine's environment or default profile takes part.
    for (const [k, v] of Object.entries(process.env)) if (k.startsWith("DNS_ACCOUNT_")) (saved[k] = v), delete process.env[k];
    process.env.DNS_ACCOUNT_CONFIG_DIR = tmp("dns-account-functions-");
  });
  after(async () => {
    delete process.env.DNS_ACCOUNT_CONFIG_DIR;
    Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)));
    await resetSharedSessions();
  });
  const ctx = (config: ProviderContext["config"]): ProviderContext => ({ config, allowInsecureHttp: false, warn: () => undefined });
  const configured = () => ctx({ baseUrl: emu().url, apiKey: "emulator-api-key-user" });

  it("isFunction: the four tokens, nothing inherited", () => {
    for (const fn of ["getFilterLists", "getWebServices", "getParentalControlCategories", "getAccountLimits"]) assert.equal(isFunction(`dns-account:index:${fn}`), true, fn);
    for (const other of ["dns-account:index:DnsServer", "toString", "__proto__", "constructor", ""]) assert.equal(isFunction(other), false, other);
  });

  it("each function reads its own list and gives the schema's shape: camelCase keys, declared properties only", async () => {
    const lists = await callFunction(configured(), "dns-account:index:getFilterLists");
    assert.deepEqual(Object.keys(lists), ["filterLists"]);
    assert.ok(lists.filterLists.some((l) => l.filterId === "adguard_dns_filter"));
    const services = await callFunction(configured(), "dns-account:index:getWebServices", {});
    assert.deepEqual(Object.keys(services), ["webServices"]);
    assert.ok(services.webServices.length > 0 && services.webServices.every((w) => typeof w.id === "string" && typeof w.name === "string"));
    const categories = await callFunction(configured(), "dns-account:index:getParentalControlCategories", null as never);
    assert.deepEqual(Object.keys(categories), ["categories"]);
    assert.ok(categories.categories.length > 0);
    const limits = await callFunction(configured(), "dns-account:index:getAccountLimits", { credentials: null as never });
    assert.equal(limits.dnsServers.used, 1);
    for (const r of [lists, services, categories, limits]) assert.doesNotMatch(JSON.stringify(r), /"[a-z]+_[a-z_]+":/, "no snake_case key");
  });

  it("the call's credentials come first; the arguments are checked, naming what is wrong", async () => {
    const key = emu().addApiKey("user@example.com");
    const wrongConfig = ctx({ baseUrl: emu().url, apiKey: "not-a-key" });
    const limits = await callFunction(wrongConfig, "dns-account:index:getAccountLimits", { credentials: { baseUrl: emu().url, apiKey: key, refreshToken: undefined } as never });
    assert.equal(limits.dnsServers.used, 1);
    // A credential given as null (an engine's absent value) is no credential, as undefined is.
    const withNull = await callFunction(wrongConfig, "dns-account:index:getAccountLimits", { credentials: { baseUrl: emu().url, apiKey: key, refreshToken: null } as never });
    assert.equal(withNull.dnsServers.used, 1);
    const refused = async (args: unknown, field: string, message: string) => {
      const e = await _rejects(callFunction(configured(), "dns-account:index:getFilterLists" as FunctionToken, args as never));
      assert.equal(e.code, "invalid_config", message);
      assert.equal(e.field, field, message);
      assert.equal(e.message, message);
    };
    for (const args of ["x", 1, []]) await refused(args, "args", `The arguments of getFilterLists must be an object: ${HINT}`);
    await refused({ apiKey: "k" }, "apiKey", `apiKey is not an argument of getFilterLists: ${HINT}`);
    for (const credentials of ["k", 1, []]) await refused({ credentials }, "credentials", `credentials must be an object: ${HINT}`);
    await refused({ credentials: { password: "p" } }, "credentials.password", `credentials.password is not a credential of getFilterLists: ${HINT}`);
    await refused({ credentials: { toString: "p" } }, "credentials.toString", `credentials.toString is not a credential of getFilterLists: ${HINT}`);
    await refused({ credentials: { apiKey: 5 } }, "credentials.apiKey", "credentials.apiKey must be a string");
    await refused({ credentials: { apiKey: { key: "k" } } }, "credentials.apiKey", "credentials.apiKey must be a string");
  });

  it("no credentials anywhere: the call's words, naming every way to give them", async () => {
    const e = await _rejects(callFunction(ctx({ baseUrl: emu().url }), "dns-account:index:getWebServices", { credentials: {} }));
    assert.equal(e.code, "invalid_config");
    assert.equal(e.field, "credentials");
    assert.equal(
      e.message,
      "No credentials: give the call credentials ({ apiKey } or a Token's { baseUrl, refreshToken }), or configure the provider " +
        "(dns-account:apiKey, or dns-account:username with dns-account:password, dns-account:refreshToken, dns-account:profile, " +
        "dns-account:credentialCommand), or set DNS_ACCOUNT_API_KEY, DNS_ACCOUNT_ACCESS_TOKEN, DNS_ACCOUNT_REFRESH_TOKEN, DNS_ACCOUNT_USERNAME with " +
        "DNS_ACCOUNT_PASSWORD, DNS_ACCOUNT_PROFILE or DNS_ACCOUNT_CREDENTIAL_COMMAND, or run dns-account login (the default profile)",
    );
  });
});

describe("provider toolkit: an account resource's client and checks in the test process (killing mutants)", () => {
  const emu = _useEmulator();
  const tmp = _useTempDirs();
  const saved: Record<string, string | undefined> = {};
  before(() => {
    for (const [k, v] of Object.entries(process.env)) if (k.startsWith("DNS_ACCOUNT_")) (saved[k] = v), delete process.env[k];
    process.env.DNS_ACCOUNT_CONFIG_DIR = tmp("dns-account-client-");
  });
  afterEach(() => resetSharedSessions());
  after(() => {
    for (const k of Object.keys(process.env)) if (k.startsWith("DNS_ACCOUNT_")) delete process.env[k];
    Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)));
  });
  const ctx = (config: ProviderContext["config"], allowInsecureHttp = false): ProviderContext => ({ config, allowInsecureHttp, warn: () => undefined });
  const B = "https://b.example:8443";
  const NONE_REASON =
    "No credentials: give the resource credentials ({ apiKey } or a Token's { baseUrl, refreshToken }), or configure the provider " +
    "(dns-account:apiKey, or dns-account:username with dns-account:password, dns-account:refreshToken, dns-account:profile, " +
    "dns-account:credentialCommand), or set DNS_ACCOUNT_API_KEY, DNS_ACCOUNT_ACCESS_TOKEN, DNS_ACCOUNT_REFRESH_TOKEN, DNS_ACCOUNT_USERNAME with " +
    "DNS_ACCOUNT_PASSWORD, DNS_ACCOUNT_PROFILE or DNS_ACCOUNT_CREDENTIAL_COMMAND, or run dns-account login (the default profile)";

  it("accountClient: an API key, a password, a refresh token and a bare access token each reach the account", async () => {
    const list = async (c: ProviderContext, credentials?: Parameters<typeof accountClient>[1]) => (await (await accountClient(c, credentials)).dnsServers.list()).length;
    assert.equal(await list(ctx({ baseUrl: emu().url, apiKey: "emulator-api-key-user" })), 1);
    assert.equal(await list(ctx({ baseUrl: emu().url, ...USER })), 1);
    const { refreshToken, accessToken } = await issueToken({ baseUrl: emu().url, ...USER });
    assert.equal(await list(ctx({}), { baseUrl: emu().url, refreshToken }), 1);
    process.env.DNS_ACCOUNT_BASE_URL = emu().url;
    process.env.DNS_ACCOUNT_ACCESS_TOKEN = accessToken;
    try {
      assert.equal(await list(ctx({})), 1);
    } finally {
      delete process.env.DNS_ACCOUNT_BASE_URL;
      delete process.env.DNS_ACCOUNT_ACCESS_TOKEN;
    }
    // An MFA code goes with the password.
    assert.equal(await list(ctx({ baseUrl: emu().url, ...MFA_USER, mfaToken: "123456" })), 1);
    // Only a password login's session is revoked at exit (it minted a refresh token no state records).
    const minted = (globalThis as unknown as Record<symbol, { sessions: Set<unknown> } | undefined>)[Symbol.for("pulumi-dns-account.minted-sessions")];
    const byPassword = await accountClient(ctx({ baseUrl: emu().url, username: USER.username, password: USER.password }), undefined);
    assert.equal(minted?.sessions.has(byPassword.session), true);
    minted!.sessions.delete(byPassword.session);
    const byToken = await accountClient(ctx({}), { baseUrl: emu().url, refreshToken });
    assert.equal(minted!.sessions.has(byToken.session), false);
    // Nothing else set: the CLI's default profile.
    await new TokenStore({ dir: process.env.DNS_ACCOUNT_CONFIG_DIR! }).put("default", { baseUrl: emu().url, apiKey: "emulator-api-key-user" });
    try {
      assert.equal(await list(ctx({})), 1);
    } finally {
      await new TokenStore({ dir: process.env.DNS_ACCOUNT_CONFIG_DIR! }).put("default", undefined);
    }
    // A password login's session is shared; the others mint nothing.
    const before = emu().stats.passwordGrants;
    await list(ctx({ baseUrl: emu().url, ...USER, mfaToken: "" }));
    assert.equal(emu().stats.passwordGrants, before, "one shared session per credential: no second login");
  });

  it("accountClient: a conflict is blamed on credentials in an account resource's words; no credentials is the resource's own problem", async () => {
    const e = await _rejects(accountClient(ctx({ baseUrl: B }), { apiKey: "k" }));
    assert.equal(e.code, "base_url_conflict");
    assert.equal(e.field, "credentials");
    assert.match(e.message, /^dns-account:baseUrl points at https:\/\/b\.example:8443, but credentials\.apiKey \(with no base URL beside it: the service's own address\)/);
    const none = await _rejects(accountClient(ctx({}), undefined));
    assert.equal(none.field, "credentials");
    assert.equal(none.message, NONE_REASON);
    const both = await _rejects(accountClient(ctx({ password: "p", refreshToken: "r" }), undefined));
    assert.equal(both.message, "Set either password or refreshToken (in config), not both");
    const user = await _rejects(accountClient(ctx({ password: "p" }), undefined));
    assert.equal(user.message, "A password needs a username (dns-account:username or DNS_ACCOUNT_USERNAME)");
    assert.equal(user.field, "username");
  });

  it("credentialProblem: none, a conflict, a missing profile and a profile of another origin, each as a check failure; usable credentials are none", async () => {
    assert.deepEqual(await credentialProblem(ctx({}), undefined), { property: "credentials", reason: NONE_REASON });
    const conflict = await credentialProblem(ctx({ baseUrl: B }), { apiKey: "k" });
    assert.equal(conflict?.property, "credentials");
    assert.match(conflict!.reason, /^base_url_conflict: dns-account:baseUrl points at /);
    const missing = await credentialProblem(ctx({ profile: "nope" }), undefined);
    assert.equal(missing?.property, "profile");
    assert.match(missing!.reason, /^No profile "nope" in .*: run dns-account login --profile nope$/);
    await new TokenStore({ dir: process.env.DNS_ACCOUNT_CONFIG_DIR! }).put("elsewhere", { baseUrl: emu().url, apiKey: "k" });
    const other = await credentialProblem(ctx({ profile: "elsewhere", baseUrl: B }), undefined);
    assert.equal(other?.property, "credentials");
    assert.match(other!.reason, /^base_url_conflict: dns-account:baseUrl points at https:\/\/b\.example:8443, but the profile "elsewhere"/);
    assert.equal(await credentialProblem(ctx({ profile: "elsewhere" }), undefined), undefined);
    assert.equal(await credentialProblem(ctx({ apiKey: "k" }), undefined), undefined);
    // A credential command is not run by check.
    assert.equal(await credentialProblem(ctx({ credentialCommand: "exit 1" }), undefined), undefined);
  });

  it("serviceChecks: credentials first; then, only when nothing else failed, the adopted object and the resource's own checks; an unreachable service is left to create", async () => {
    const good = ctx({ baseUrl: emu().url, apiKey: "emulator-api-key-user" });
    const seen: string[] = [];
    const spec = {
      what: "device",
      exists: async (_c: unknown, id: string) => (seen.push(id), id === "there"),
      more: async () => [{ property: "settings", reason: "more" }],
    };
    assert.deepEqual(await serviceChecks(ctx({}), { credentials: UNKNOWN as never }, false, spec), []);
    assert.deepEqual(await serviceChecks(ctx({}), {}, false, spec), [{ property: "credentials", reason: NONE_REASON }]);
    assert.deepEqual(await serviceChecks(ctx({}), {}, true, spec), [{ property: "credentials", reason: NONE_REASON }], "always reported");
    assert.deepEqual(await serviceChecks(good, { adopt: "gone" }, true, spec), []);
    assert.deepEqual(await serviceChecks(good, { adopt: "gone" }, false, spec), [{ property: "adopt", reason: "adopt names no device of this account" }, { property: "settings", reason: "more" }]);
    assert.deepEqual(await serviceChecks(good, { adopt: "there" }, false, spec), [{ property: "settings", reason: "more" }]);
    assert.deepEqual(await serviceChecks(good, { adopt: UNKNOWN }, false, { what: "device", exists: spec.exists }), []);
    assert.deepEqual(await serviceChecks(good, {}, false, { what: "device", exists: spec.exists }), []);
    assert.deepEqual(seen, ["gone", "there"], "exists is asked only for a known adopt");
    const unreachable = { ...spec, exists: async () => Promise.reject(new Error("connect ECONNREFUSED")) };
    assert.deepEqual(await serviceChecks(good, { adopt: "x" }, false, unreachable), []);
  });
});

describe("provider toolkit: the dynamic face and the stack config in the test process (killing mutants)", () => {
  type Call = [string, ProviderContext, ...unknown[]];
  const calls: Call[] = [];
  const lifecycle: Lifecycle<object, object> = {
    check: async (c, olds, news) => (calls.push(["check", c, olds, news]), { inputs: news }),
    diff: async (c, id, olds, news) => (calls.push(["diff", c, id, olds, news]), { changes: true, replaces: ["name"], deleteBeforeReplace: false }),
    create: async (c, inputs) => {
      calls.push(["create", c, inputs]);
      if ((inputs as { fail?: string }).fail === "partial") throw new PartialCreateError("half done", "id-1", { name: "x" });
      if ((inputs as { fail?: string }).fail === "plain") throw new Error("nothing made");
      return { id: "id-1", outs: { name: "x" } };
    },
    read: async (c, id, props) => (calls.push(["read", c, id, props]), id === "gone" ? {} : id === "bare" ? { id } : { id, props: { name: "y" } }),
    update: async (c, id, olds, news) => (calls.push(["update", c, id, olds, news]), { outs: { name: "z" } }),
    remove: async (c, id, props) => void calls.push(["remove", c, id, props]),
  };
  const config = (values: Record<string, string>) => ({ config: { get: (k: string) => values[k] } }) as never;
  after(() => configureStack(config({})));

  it("stack config: the dns-account keys and allowInsecureHttp reach every call's context; a config that throws is no value", async () => {
    const warnings: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => (warnings.push(chunk), true)) as never;
    try {
      await configureStack(config({ "dns-account:apiKey": "k", "dns-account:baseUrl": "https://a.example", "other:apiKey": "no", "dns-account:allowInsecureHttp": "true" }));
      const c = dynamicContext();
      assert.deepEqual(c.config, { apiKey: "k", baseUrl: "https://a.example" });
      assert.equal(c.allowInsecureHttp, true);
      c.warn("careful");
      assert.deepEqual(warnings, ["warning: careful\n"]);
    } finally {
      process.stderr.write = write;
    }
    await configureStack({ config: { get: () => { throw new Error("secret missing"); } } } as never);
    assert.deepEqual(dynamicContext().config, {});
    assert.equal(dynamicContext().allowInsecureHttp, false);
  });

  it("stack config before configure: no credential fields, plain http:// refused", () => {
    const file = require.resolve("../../provider/shared/stack-config");
    const cached = require.cache[file];
    delete require.cache[file];
    try {
      const fresh = require(file) as typeof import("../../provider/shared/stack-config");
      assert.deepEqual(fresh.dynamicContext().config, {});
      assert.equal(fresh.dynamicContext().allowInsecureHttp, false);
    } finally {
      require.cache[file] = cached;
    }
  });

  it("dynamic face: every method runs the lifecycle's with the stack's context; read's gone and bare answers; delete is remove", async () => {
    const face = dynamicFace(() => lifecycle);
    await face.configure(config({ "dns-account:refreshToken": "r" }));
    calls.length = 0;
    assert.deepEqual(await face.check({ a: 1 }, { b: 2 }), { inputs: { b: 2 } });
    assert.deepEqual(await face.diff("id-1", { a: 1 }, { b: 2 }), { changes: true, replaces: ["name"], deleteBeforeReplace: false });
    assert.deepEqual(await face.create({ name: "x" }), { id: "id-1", outs: { name: "x" } });
    assert.deepEqual(await face.read("id-1", { name: "x" }), { id: "id-1", props: { name: "y" } });
    assert.deepEqual(await face.read("gone", { name: "x" }), {});
    assert.deepEqual(await face.read("bare", { name: "x" }), { id: "bare" });
    assert.deepEqual(await face.update("id-1", { name: "x" }, { name: "z" }), { outs: { name: "z" } });
    assert.equal(await face.delete("id-1", { name: "z" }), undefined);
    assert.deepEqual(calls.map(([m, , ...rest]) => [m, ...rest]), [
      ["check", { a: 1 }, { b: 2 }],
      ["diff", "id-1", { a: 1 }, { b: 2 }],
      ["create", { name: "x" }],
      ["read", "id-1", { name: "x" }],
      ["read", "gone", { name: "x" }],
      ["read", "bare", { name: "x" }],
      ["update", "id-1", { name: "x" }, { name: "z" }],
      ["remove", "id-1", { name: "z" }],
    ]);
    for (const [, c] of calls) assert.deepEqual(c.config, { refreshToken: "r" });
  });

  it("dynamic face: a partial create carries its outputs and this resource's __provider for the host's partial state; other errors pass as they are", async () => {
    const face = dynamicFace(() => lifecycle);
    const partial = (await _rejects(face.create({ fail: "partial", __provider: "serialized" }))) as PartialCreateError & { properties: object; reasons: string[] };
    assert.ok(partial instanceof PartialCreateError);
    assert.equal(partial.id, "id-1");
    assert.deepEqual(partial.properties, { name: "x", __provider: "serialized" });
    assert.deepEqual(partial.reasons, ["half done"]);
    const bare = (await _rejects(face.create({ fail: "partial" }))) as PartialCreateError & { properties: object };
    assert.deepEqual(bare.properties, { name: "x" });
    assert.equal(Object.hasOwn(bare.properties, "__provider"), false);
    const plain = await _rejects(face.create({ fail: "plain" }));
    assert.equal(plain.message, "nothing made");
    assert.equal("properties" in plain, false);
  });

  it("lifecycle: insecureOf only when allowed; PartialCreateError is named so", () => {
    assert.deepEqual(insecureOf({ config: {}, allowInsecureHttp: true, warn: () => undefined }), { allowInsecureHttp: true });
    assert.deepEqual(insecureOf({ config: {}, allowInsecureHttp: false, warn: () => undefined }), {});
    const e = new PartialCreateError("m", "i", { a: 1 });
    assert.equal(e.name, "PartialCreateError");
    assert.equal(e.message, "m");
    assert.deepEqual([e.id, e.outs], ["i", { a: 1 }]);
  });
});
