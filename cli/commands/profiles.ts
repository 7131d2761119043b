/** `dns-account profiles`: the stored profiles, without secrets. */
import { type Command, iso, json, newStore, note, out, shown } from "../command";

export const profiles: Command = {
  summary: "List stored profiles (no secrets)",
  usage: "Usage: dns-account profiles [--json]",
  options: { json: { type: "boolean" } },
  async run(v) {
    const store = newStore(v);
    const data = await store.read();
    const rows = Object.entries(data.profiles).map(([name, p]) => ({
      profile: name,
      baseUrl: p.baseUrl,
      username: p.username ?? null,
      refreshToken: Boolean(p.refreshToken),
      apiKey: Boolean(p.apiKey),
      expiresAt: p.expiresAt !== undefined ? iso(p.expiresAt) : null,
    }));
    if (v.json) out(json(rows));
    else if (rows.length === 0) note(`No profiles in ${store.file}.`);
    else for (const r of rows) out(`${shown(r.profile)}\t${shown(r.baseUrl)}\t${shown(r.username ?? "-")}\t${r.apiKey ? "API key" : r.refreshToken ? "refresh token" : "access token only"}\t${r.expiresAt ?? "-"}`);
  },
};
