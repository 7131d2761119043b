/**
 * The floor of a provider phase: one login, then exactly the requests the service needs, issued with
 * an undici `Pool(16)`, all in flight at once. Used by the raw floor (a bare process) and by the engine
 * floors (a trivial dynamic provider and a trivial plugin making these same requests), so the three
 * differ only in what carries the calls. One pool and one login per process.
 */
import { Pool } from "undici";

/** The resource kinds the phases measure. */
export type Kind = "Device" | "DnsServer";

/** What one process needs to reach the account. */
export interface FloorTarget {
  baseUrl: string;
  username: string;
  password: string;
}

interface Floor {
  pool: Pool;
  token: Promise<string>;
  addresses?: Promise<{ ip: string; device_id?: string }[]>;
}

const FLOOR = Symbol.for("pulumi-dns-account.bench-floor");

function floor(t: FloorTarget): Floor {
  const g = globalThis as unknown as Record<symbol, Floor | undefined>;
  if (!g[FLOOR]) {
    const pool = new Pool(t.baseUrl, { connections: 16 });
    const token = (async () => {
      const body = new URLSearchParams({ grant_type: "password", username: t.username, password: t.password }).toString();
      const res = await pool.request({ path: "/oapi/v1/oauth_token", method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
      const json = (await res.body.json()) as { access_token: string };
      return json.access_token;
    })();
    g[FLOOR] = { pool, token };
  }
  return g[FLOOR]!;
}

async function call(t: FloorTarget, method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<unknown> {
  const f = floor(t);
  const headers: Record<string, string> = { authorization: `Bearer ${await f.token}`, accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await f.pool.request({ path: `/oapi/v1${path}`, method, headers, body: body === undefined ? null : JSON.stringify(body) });
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: HTTP ${res.statusCode} ${await res.body.text()}`);
  const text = await res.body.text();
  return text ? JSON.parse(text) : undefined;
}

const PATHS: Record<Kind, string> = { Device: "/devices", DnsServer: "/dns_servers" };

/** Creates one object (one POST) and resolves its id and the response. */
export async function create(t: FloorTarget, kind: Kind, body: unknown): Promise<{ id: string; props: Record<string, unknown> }> {
  const made = (await call(t, "POST", PATHS[kind], body)) as Record<string, unknown>;
  return { id: made.id as string, props: made };
}

/** Reads one object (one GET); a device also its linked addresses, from one listing per process. */
export async function read(t: FloorTarget, kind: Kind, id: string): Promise<Record<string, unknown>> {
  const f = floor(t);
  if (kind === "Device") {
    f.addresses ??= call(t, "GET", "/dedicated_addresses/ipv4") as Promise<{ ip: string; device_id?: string }[]>;
    const [device, addresses] = await Promise.all([call(t, "GET", `${PATHS[kind]}/${id}`), f.addresses]);
    return { ...(device as Record<string, unknown>), linkedIpv4: addresses.filter((a) => a.device_id === id).map((a) => a.ip) };
  }
  return (await call(t, "GET", `${PATHS[kind]}/${id}`)) as Record<string, unknown>;
}

/** Reads one object with one GET and nothing else (the floor of a refresh that needs only the object). */
export async function get(t: FloorTarget, kind: Kind, id: string): Promise<Record<string, unknown>> {
  return (await call(t, "GET", `${PATHS[kind]}/${id}`)) as Record<string, unknown>;
}

/** Deletes one object (one DELETE). */
export async function remove(t: FloorTarget, kind: Kind, id: string): Promise<void> {
  await call(t, "DELETE", `${PATHS[kind]}/${id}`);
}

/** Closes this process's pool. */
export async function close(): Promise<void> {
  const g = globalThis as unknown as Record<symbol, Floor | undefined>;
  await g[FLOOR]?.pool.close();
  delete g[FLOOR];
}
