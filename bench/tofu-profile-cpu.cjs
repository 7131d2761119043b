// Summarises --cpu-prof profiles of the npm bin (the minified tofu.bundle.js, with its code cache) after the handshake,
// mapped through the bundle's source map: PROF_MAP=<map> node bench/tofu-profile-cpu.cjs <profile dirs…>. The map is
// the build's own: `BUNDLE_SOURCEMAPS=1 node scripts/bundle.mjs` writes dist/provider/tofu/tofu.bundle.js.map (the
// default PROF_MAP) beside a bundle whose bytes are those of a build without it (scripts/bundle.mjs). A profile
// of another bundle (a copy in /tmp, PROF_FACES=old) needs that bundle's own map, made the same way.
const { readFileSync, readdirSync } = require("fs");
const path = require("path");
const sm = require("source-map");
(async () => {
  const consumer = await new sm.SourceMapConsumer(JSON.parse(readFileSync(process.env.PROF_MAP ?? path.join(__dirname, "..", "dist", "provider", "tofu", "tofu.bundle.js.map"), "utf8")));
  const memo = new Map();
  const orig = (cf) => {
    if (!cf.url.endsWith("tofu.bundle.js")) return { src: cf.url ? cf.url.replace(/^node:/, "node:") : cf.functionName, name: cf.functionName };
    const k = `${cf.lineNumber}:${cf.columnNumber}`;
    if (!memo.has(k)) { const o = consumer.originalPositionFor({ line: cf.lineNumber + 1, column: cf.columnNumber }); memo.set(k, { src: (o.source || "?").replace(/^.*?node_modules\//, "node_modules/").replace(/^(\.\.\/)+/, ""), name: o.name || cf.functionName || "(anon)" }); }
    return memo.get(k);
  };
  const pkg = (s) => { const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(s); return m ? m[1] : s.replace(/^(provider|sdk)\/.*/, (x) => x); };
  for (const dir of process.argv.slice(2)) {
    const byPkg = new Map(), byFn = new Map(), incl = new Map(), excl = new Map(); const per = [];
    for (const f of readdirSync(dir).filter((x) => x.endsWith(".cpuprofile")).sort()) {
      const p = JSON.parse(readFileSync(path.join(dir, f)));
      const nodes = new Map(p.nodes.map((n) => [n.id, n])); const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
      const chain = (id) => { const c = []; for (; id !== undefined; id = parent.get(id)) c.push(nodes.get(id).callFrame); return c.reverse(); };
      let cut = -1;
      for (let i = 0; i < p.samples.length; i++) if (chain(p.samples[i]).some((cf) => { const o = orig(cf); return /provider\/tofu\/(main|server)\.ts$/.test(o.src) && ["serve", "mintServerCertificate", "listen", "start"].includes(o.name); })) cut = i;
      let pre = 0, post = 0;
      for (let i = 0; i < p.samples.length; i++) {
        const us = p.timeDeltas[i + 1] ?? 0; const c = chain(p.samples[i]); const leaf = c[c.length - 1];
        if (leaf.functionName === "(idle)") continue;
        if (i <= cut) { pre += us; continue; }
        post += us;
        const o = orig(leaf); const pk = pkg(o.src);
        byPkg.set(pk, (byPkg.get(pk) ?? 0) + us); byFn.set(`${o.name} [${o.src.replace(/^node_modules\//, "")}]`, (byFn.get(`${o.name} [${o.src.replace(/^node_modules\//, "")}]`) ?? 0) + us);
        { let cat = "other";
          const rules = [[/zod/, "zod"], [/undici/, "undici (HTTP client)"], [/msgpack/, "msgpack"], [/protobufjs|proto-loader|codegen|\$(en|de)code|\$fromObject|\$toObject/, "protobuf encode/decode (+codegen)"], [/exit-revocation/, "exit revocation"], [/provider\/tofu\/values/, "values.ts"], [/^sdk\//, "sdk (other)"], [/^provider\//, "provider (other)"], [/grpc-js/, "grpc-js"], [/node:internal\/http2|node:internal\/http|http2/, "node http2"], [/node:(net|tls|_tls|internal\/tls|internal\/net|internal\/stream)|writeGeneric|Readable|Writable/, "node net/tls/streams"]];
          for (let j = c.length - 1; j >= 0 && cat === "other"; j--) { const x = orig(c[j]); const s2 = `${x.src} ${x.name}`; for (const [re, name] of rules) if (re.test(s2)) { cat = name; break; } }
          if (leaf.functionName === "(garbage collector)") cat = "GC"; if (leaf.functionName === "(program)") cat = "(program)";
          excl.set(cat, (excl.get(cat) ?? 0) + us); }
        const seen = new Set();
        for (const cf of c) { const x = orig(cf); let key;
          if (/provider\/tofu\/server\.ts$/.test(x.src) && /^[A-Z]/.test(x.name)) key = `handler ${x.name}`;
          else if (x.name === "Codegen" || /codegen/.test(x.src)) key = "protobufjs codegen";
          else if (/zod/.test(x.src)) key = "zod (load+parse)";
          else if (/undici/.test(x.src)) key = "undici";
          else if (/msgpack/.test(x.src)) key = "msgpack";
          else if (/provider\/tofu\/values\.ts$/.test(x.src)) key = "values.ts";
          else if (/exit-revocation/.test(x.src)) key = "exit revocation";
          else if (/sdk\/auth|session\.ts|grants\.ts/.test(x.src)) key = "sdk auth/session";
          else if (/serialize|deserialize/.test(x.name) && /proto-loader/.test(x.src)) key = `proto-loader ${x.name}`;
          if (key && !seen.has(key)) { seen.add(key); incl.set(key, (incl.get(key) ?? 0) + us); } }
        if (leaf.functionName === "(garbage collector)") incl.set("GC", (incl.get("GC") ?? 0) + us);
      }
      per.push(`${(pre / 1000).toFixed(0)}+${(post / 1000).toFixed(0)}`);
    }
    console.log(`\n## ${dir}: busy ms per process, before + after the handshake: ${per.join(", ")}`);
    const top = (m, k, t) => { console.log(`-- ${t}`); for (const [a, b] of [...m].sort((x, y) => y[1] - x[1]).slice(0, k)) console.log(`${(b / 1000).toFixed(0).padStart(6)} ${a}`); };
    top(byPkg, 12, "after the handshake, self by package/source");
    top(byFn, 15, "after the handshake, self by function");
    top(excl, 20, "after the handshake, EXCLUSIVE by area (innermost match)");
    top(incl, 20, "after the handshake, inclusive by area (a sample can count in several)");
  }
  consumer.destroy?.();
})();
