// Per provider process timeline of a TF_LOG=trace tofu log: node bench/tofu-profile-trace.mjs <log>. Runs of same-kind
// calls, and the ms from each run's start to the next event (tofu logs a call when it starts it).
// Per process timeline from a TF_LOG=trace log: runs of consecutive same-kind calls, ms from each run's start to the next event.
import { readFileSync } from "node:fs";
const text = readFileSync(process.argv[2], "utf8");
const at = (l) => Date.parse(l.slice(0, 24));
const procs = [];
let cur, lastKind;
for (const l of text.split("\n")) {
  let m;
  if (/provider: plugin started:/.test(l)) { cur = { ev: [["spawn", at(l)]] }; procs.push(cur); lastKind = undefined; continue; }
  if (!cur) continue;
  if (/provider: using plugin:/.test(l)) cur.ev.push(["handshake", at(l)]);
  else if ((m = /GRPCProvider.v6: (\w+)/.exec(l))) {
    const k = m[1];
    if (k === "GetProviderSchema" && lastKind && lastKind !== "GetProviderSchema" && lastKind !== "handshake") continue; // tofu's cached-schema lookup after a call
    if (k !== lastKind) cur.ev.push([k, at(l), 1]); else cur.ev[cur.ev.length - 1][2]++;
    lastKind = k;
  } else if (/Shutdown: the client is done/.test(l)) cur.ev.push(["Shutdown(provider log)", at(l)]);
  else if (/provider: plugin process exited/.test(l)) cur.ev.push(["exit", at(l)]);
  if (/using plugin/.test(l)) lastKind = "handshake";
}
for (const [i, p] of procs.entries()) {
  const parts = p.ev.map(([k, t, n], j) => { const next = p.ev[j + 1]; return `${k}${n > 1 ? `×${n}` : ""}${next ? ` ${next[1] - t}` : ""}`; });
  console.log(`#${i + 1} (${p.ev[p.ev.length - 1][1] - p.ev[0][1]} ms): ${parts.join(" → ")}`);
}
