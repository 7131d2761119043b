import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Opaque, tamper-evident page cursors: the offset and a fingerprint of the query (so a cursor from one
 * filter cannot be replayed against another), signed with a per-emulator key.
 *
 * @example
 * ```ts
 * const c = encodeCursor(key, "devices|search=x", 20);
 * decodeCursor(key, "devices|search=x", c); // 20
 * ```
 */
export function encodeCursor(key: Buffer, scope: string, offset: number): string {
  const payload = Buffer.from(JSON.stringify({ o: offset })).toString("base64url");
  return `${payload}.${sign(key, scope, payload)}`;
}

/** The offset a cursor stands for, or undefined when it is malformed, forged or from another query. */
export function decodeCursor(key: Buffer, scope: string, cursor: string): number | undefined {
  if (cursor.length > 512) return undefined;
  const [payload, mac, extra] = cursor.split(".");
  if (!payload || !mac || extra !== undefined) return undefined;
  const expected = Buffer.from(sign(key, scope, payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const { o } = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { o: unknown };
    return typeof o === "number" && Number.isInteger(o) && o >= 0 ? o : undefined;
  } catch {
    return undefined;
  }
}

function sign(key: Buffer, scope: string, payload: string): string {
  return createHmac("sha256", key).update(scope).update("\0").update(payload).digest("base64url").slice(0, 22);
}

/** One page of a list: the items and the `navigation` object (`{ next?, prev? }` of `NavigationPage`). */
export interface PageOf<T> {
  items: T[];
  navigation: { next?: { page_cursor: string; page_number: number }; prev?: { page_cursor: string; page_number: number } };
  pageNumber: number;
}

/**
 * Cuts one page out of a full list at a cursor.
 *
 * @example
 * ```ts
 * const page = paginate(key, "scope", all, undefined, 10);
 * ```
 */
export function paginate<T>(key: Buffer, scope: string, all: readonly T[], offset: number, limit: number): PageOf<T> {
  const items = all.slice(offset, offset + limit);
  const pageNumber = Math.floor(offset / limit) + 1;
  const navigation: PageOf<T>["navigation"] = {};
  if (offset + limit < all.length) navigation.next = { page_cursor: encodeCursor(key, scope, offset + limit), page_number: pageNumber + 1 };
  if (offset > 0) navigation.prev = { page_cursor: encodeCursor(key, scope, Math.max(0, offset - limit)), page_number: Math.max(1, pageNumber - 1) };
  return { items, navigation, pageNumber };
}
