/** `dns-account revoke` (and `logout`): revoke the profile's refresh token and remove the profile. */
import { type Command, insecure, insecureOption, json, newStore, note, out, profileOf, profileOption, revoke as revokeModule } from "../command";

export const revoke: Command = {
  summary: "Revoke the profile's refresh token and remove the profile (alias: logout)",
  usage: `Usage: dns-account revoke [--profile P] [--local] [--json] [--allow-insecure-http]
     dns-account logout [--profile P] [--local] [--json] [--allow-insecure-http]

Revoking an already revoked token succeeds; a missing profile is not an error. A refresh token that
login adopted from DNS_ACCOUNT_REFRESH_TOKEN is forgotten, not revoked (it belongs to whoever gave it). --local removes the
profile without contacting the server (e.g. it is unreachable): its refresh token is NOT revoked and
stays valid until it is revoked some other way.`,
  options: { ...profileOption, ...insecureOption, local: { type: "boolean" }, json: { type: "boolean" } },
  async run(v) {
    const profile = profileOf(v);
    const store = newStore(v);
    const p = await store.profile(profile);
    // Only a refresh token this CLI minted is revoked: an adopted one belongs to whoever gave it.
    const revoked = Boolean(p?.refreshToken) && !v.local && !p?.adopted;
    if (revoked) await revokeModule().revokeToken({ baseUrl: p!.baseUrl, refreshToken: p!.refreshToken!, ...insecure(v) });
    if (p) await store.put(profile, undefined);
    if (v.json) out(json({ profile, removed: Boolean(p), revoked }));
    else if (!p) note(`No profile "${profile}": nothing to revoke.`);
    else if (p.apiKey) note(`Removed profile "${profile}". The API key itself stays valid until it is deleted in the dashboard.`);
    else if (p.adopted) note(`Removed profile "${profile}". Its refresh token was adopted (DNS_ACCOUNT_REFRESH_TOKEN), not minted by dns-account login, so it was not revoked: it stays valid for whoever gave it.`);
    else if (revoked || !p.refreshToken) note(`${revoked ? "Revoked and removed" : "Removed"} profile "${profile}".`);
    else note(`Removed profile "${profile}" locally; its refresh token was NOT revoked and stays valid until revoked.`);
  },
};
