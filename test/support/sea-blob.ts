import assert from "node:assert/strict";

// Node's single executable applications as the packaging scripts build them (scripts/package-plugin.mjs,
// scripts/package-tofu.mjs), read back for their tests.

/** Node's single-executable blob (src/node_sea.cc): magic, flags, then length-prefixed fields. */
export const SEA_MAGIC = 0x0143da20;
/** The blob's flags (src/node_sea.h). */
export const SEA_FLAGS = { disableWarning: 1 << 0, useSnapshot: 1 << 1, useCodeCache: 1 << 2, includeAssets: 1 << 3 };

/** An executable's SEA blob, its fields as Node reads them. */
export interface SeaBlob {
  flags: number;
  codePath: string;
  main: string;
  codeCache: Buffer | undefined;
  assets: Map<string, Buffer>;
}

/**
 * The SEA blob postject injected into `exe`, read as Node 20 reads it: `u32 magic, u32 flags, str code_path,
 * str main, [str code_cache when useCodeCache], [u64 count, count × (str key, str value) when includeAssets]`,
 * each `str` a u64 length and its bytes. The one place of the magic that reads as a whole blob.
 *
 * @example
 * ```ts
 * _seaBlob(readFileSync(exe)).assets.get("plugin.js");
 * ```
 */
export function _seaBlob(exe: Buffer): SeaBlob {
  const magic = Buffer.alloc(4);
  magic.writeUInt32LE(SEA_MAGIC);
  for (let at = exe.indexOf(magic); at >= 0; at = exe.indexOf(magic, at + 1)) {
    try {
      let off = at + 4;
      const str = (): Buffer => {
        const n = Number(exe.readBigUInt64LE(off));
        if (n > exe.length - off - 8) throw new RangeError("past the end");
        off += 8;
        const value = exe.subarray(off, off + n);
        off += n;
        return value;
      };
      const flags = exe.readUInt32LE(off);
      off += 4;
      if (flags >= 16) continue;
      const codePath = str().toString("utf8");
      const main = str().toString("utf8");
      const codeCache = flags & SEA_FLAGS.useCodeCache ? str() : undefined;
      const assets = new Map<string, Buffer>();
      if (flags & SEA_FLAGS.includeAssets) {
        const count = Number(exe.readBigUInt64LE(off));
        off += 8;
        if (count > 64) continue;
        for (let i = 0; i < count; i++) assets.set(str().toString("utf8"), Buffer.from(str()));
      }
      if (!/^[\x20-\x7e]+$/.test(codePath)) continue;
      return { flags, codePath, main, codeCache, assets };
    } catch {
      // not the blob
    }
  }
  throw new Error("no SEA blob in the executable");
}

/**
 * The names of an ELF file's sections (a stripped executable has no `.symtab`).
 *
 * @example
 * ```ts
 * _elfSections(readFileSync(exe)).includes(".symtab"); // false once stripped
 * ```
 */
export function _elfSections(file: Buffer): string[] {
  assert.equal(file.subarray(0, 4).toString("latin1"), "\x7fELF");
  const shoff = Number(file.readBigUInt64LE(0x28));
  const size = file.readUInt16LE(0x3a);
  const count = file.readUInt16LE(0x3c);
  const header = (i: number) => shoff + i * size;
  const names = Number(file.readBigUInt64LE(header(file.readUInt16LE(0x3e)) + 0x18));
  return Array.from({ length: count }, (_, i) => {
    const at = names + file.readUInt32LE(header(i));
    return file.subarray(at, file.indexOf(0, at)).toString("latin1");
  });
}
