/** One entry of a zip's central directory, its fields as written (APPNOTE.TXT 4.3.12). */
export interface ZipEntry {
  name: string;
  /** The upper byte of "version made by": 3 is Unix, whose external attributes carry the mode. */
  madeByOs: number;
  method: number;
  dosTime: number;
  dosDate: number;
  compressedSize: number;
  size: number;
  /** Central and local extra fields' length together. */
  extraLength: number;
  externalAttrs: number;
}

/**
 * The entries of the zip `data` as its central directory lists them (found from the end-of-central-directory
 * record; no zip64, no comment), for tests of what a zip writer put in.
 *
 * @example
 * ```ts
 * _zipEntries(readFileSync(zip))[0]!.externalAttrs >>> 16; // 0o100755
 * ```
 */
export function _zipEntries(data: Buffer): ZipEntry[] {
  const eocd = data.length - 22;
  if (data.readUInt32LE(eocd) !== 0x06054b50) throw new Error("no end-of-central-directory record at the end (a comment or zip64?)");
  const count = data.readUInt16LE(eocd + 10);
  let at = data.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (data.readUInt32LE(at) !== 0x02014b50) throw new Error(`no central directory header at ${at}`);
    const nameLength = data.readUInt16LE(at + 28);
    const extra = data.readUInt16LE(at + 30);
    const comment = data.readUInt16LE(at + 32);
    const local = data.readUInt32LE(at + 42);
    if (data.readUInt32LE(local) !== 0x04034b50) throw new Error(`no local header at ${local}`);
    entries.push({
      name: data.subarray(at + 46, at + 46 + nameLength).toString("utf8"),
      madeByOs: data.readUInt8(at + 5),
      method: data.readUInt16LE(at + 10),
      dosTime: data.readUInt16LE(at + 12),
      dosDate: data.readUInt16LE(at + 14),
      compressedSize: data.readUInt32LE(at + 20),
      size: data.readUInt32LE(at + 24),
      extraLength: extra + data.readUInt16LE(local + 28),
      externalAttrs: data.readUInt32LE(at + 38),
    });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}
