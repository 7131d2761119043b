import { deflateRawSync } from "node:zlib";
import zlib from "node:zlib";
import { fencedBlocks } from "./readme-blocks";

/** What a test does with one `hcl` block of docs/opentofu.md. */
export type DocBlockKind = "cli-config" | "fragment" | "configuration";

/** One `hcl` block of a docs page, with the heading it is under. */
export interface DocHclBlock {
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The nearest heading above the block (without its `#`s). */
  heading: string;
  kind: DocBlockKind;
}

/**
 * Every ```` ```hcl ```` block of a Markdown page, in order, with its heading and kind: a CLI
 * configuration (it holds `provider_installation`), a fragment (its first line is `# fragment`: validated
 * inside a minimal configuration), else a configuration (applied).
 *
 * @example
 * ```ts
 * const blocks = _docHclBlocks(readFileSync("docs/opentofu.md", "utf8"), "docs/opentofu.md");
 * ```
 */
export function _docHclBlocks(markdown: string, file: string): DocHclBlock[] {
  const lines = markdown.split("\n");
  return fencedBlocks(markdown, file)
    .filter((b) => b.lang === "hcl")
    .map((b) => {
      const heading =
        lines
          .slice(0, b.line - 1)
          .reverse()
          .find((l) => /^#{1,6} /.test(l))
          ?.replace(/^#+ /, "") ?? "(no heading)";
      const kind: DocBlockKind = /\bprovider_installation\b/.test(b.text) ? "cli-config" : b.first === "# fragment" ? "fragment" : "configuration";
      return { text: b.text, line: b.line, heading, kind };
    });
}

/** The objects a configuration's `import {}` blocks name, by resource type (`dnsaccount_device`) and id. */
export function _importedIds(hcl: string): { type: string; id: string }[] {
  const out: { type: string; id: string }[] = [];
  for (const m of hcl.matchAll(/import\s*\{([^}]*)\}/g)) {
    const to = /\bto\s*=\s*(dnsaccount_\w+)\.\w+/.exec(m[1]!);
    const id = /\bid\s*=\s*"([^"]+)"/.exec(m[1]!);
    if (to && id) out.push({ type: to[1]!, id: id[1]! });
  }
  return out;
}

/** Variables a configuration uses (`var.NAME`) and those it declares (`variable "NAME"`). */
export function _variables(hcl: string): { used: string[]; declared: string[] } {
  return {
    used: [...new Set([...hcl.matchAll(/\bvar\.(\w+)/g)].map((m) => m[1]!))],
    declared: [...hcl.matchAll(/^variable\s+"(\w+)"/gm)].map((m) => m[1]!),
  };
}

/**
 * A zip archive of stored (uncompressed) or deflated entries, with Unix modes, as release zips are: the
 * smallest writer that tofu's installer reads, for a stand-in of the release zips in a test.
 *
 * @example
 * ```ts
 * writeFileSync("p.zip", _zip([{ name: "terraform-provider-dnsaccount_v0.2.0", data: Buffer.from("#!/bin/sh\n"), mode: 0o755 }]));
 * ```
 */
export function _zip(entries: { name: string; data: Buffer; mode: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, "utf8");
    const body = deflateRawSync(e.data);
    const crc = zlib.crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((0o100000 | e.mode) << 16) >>> 0, 38); // regular file and its mode
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}
