import { request } from "undici";
import type { Emulator } from "../../emulator";

/** A Bearer-less caller for emulator tests: the seeded API key of the default user, JSON in and out. */
export function _api(emu: () => Emulator, key = "emulator-api-key-user") {
  return async (method: string, path: string, body?: unknown) => {
    const res = await request(`${emu().url}${path}`, {
      method: method as "GET",
      headers: { authorization: `ApiKey ${key}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    const type = String(res.headers["content-type"] ?? "");
    const json: any = type.startsWith("application/json") && bytes.length ? JSON.parse(bytes.toString()) : undefined;
    return { status: res.statusCode, headers: res.headers, bytes, json };
  };
}
