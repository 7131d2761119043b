import assert from "node:assert/strict";
import { json, shown } from "../../cli/command";
import { table } from "../../cli/report";

/** Every character a name from the service must not bring to the terminal raw. */
const UNSAFE = [
  ...["\u0000", "\u0007", "\u0008", "\t", "\n", "\r", "\u001b", "\u007f", "\u0085", "\u009b", "\u009d"],
  // Bidi marks, embeddings, overrides and isolates.
  ...["\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u061c"],
  // Other format characters (zero-width, BOM, soft hyphen, tags), line and paragraph separators, a lone surrogate.
  ...["\u200b", "\u200d", "\ufeff", "\u00ad", "\u{e0041}", "\u2028", "\u2029", "\ud800"],
];
const RAW = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
/** The output's own line breaks aside. */
const lines = (text: string) => text.replace(/\n/g, "");

describe("CLI output of service-supplied strings (tables, shown, --json)", () => {
  it("a table shows every control, bidi and format character escaped, so none reaches the terminal", () => {
    for (const c of UNSAFE) {
      const text = table([["NAME", "ID"], [`Phone${c}exe.txt`, "d1"]]);
      assert.doesNotMatch(lines(text), RAW, JSON.stringify(c));
      const cp = c.codePointAt(0)!;
      const escape = cp > 0xffff ? `\\u{${cp.toString(16).toUpperCase()}}` : `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`;
      assert.ok(text.includes(`Phone${escape}exe.txt`), `${escape} in ${text}`);
    }
  });

  it("the columns stay aligned with the escapes in them, and ordinary text (emoji, accents, CJK) is untouched", () => {
    assert.equal(table([["NAME", "ID"], ["a\u202Eb", "d1"], ["Küche 📱", "d2"]]), "NAME      ID\na\\u202Eb  d1\nKüche 📱  d2");
    assert.equal(shown("家族 Ünïcödé ✓"), "家族 Ünïcödé ✓");
  });

  it("--json escapes them too, and still parses to exactly the service's strings", () => {
    for (const c of UNSAFE) {
      const value = { name: `a${c}b`, nested: [`${c}`] };
      const text = json(value, 2);
      assert.doesNotMatch(lines(text), RAW, JSON.stringify(c));
      assert.deepEqual(JSON.parse(text), value);
    }
  });
});
