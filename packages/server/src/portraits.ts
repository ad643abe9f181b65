import { failure, type Outcome } from './outcome';
import { createHash } from 'node:crypto';
import type { Portrait, Store } from './store/types';

/**
 * Uploaded character portraits: what the server accepts. The image is kept as sent; it is only
 * accepted when its first bytes are those of a PNG, JPEG or WebP file, whatever the request claims,
 * and it is served again with that type (and `nosniff`), so an upload can never be served as a page.
 */

/** The largest portrait accepted: 256 KiB. */
export const MAX_PORTRAIT_BYTES = 256 * 1024;

export const PORTRAIT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type PortraitType = (typeof PORTRAIT_TYPES)[number];

/** The image type the content's own first bytes name, or null. */
export function imageTypeOf(data: Uint8Array): PortraitType | null {
  const at = (i: number, bytes: readonly number[]) => bytes.every((b, j) => data[i + j] === b);
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (at(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  // "RIFF", four bytes of length, "WEBP".
  if (at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50])) return 'image/webp';
  return null;
}

const field = { field: 'portrait' };

/** Checks an uploaded portrait: its size, the type the request declares and the type its content is. */
export function checkPortrait(body: unknown, declared: string | undefined): Outcome<{ contentType: PortraitType; data: Buffer; digest: string }> {
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (!(PORTRAIT_TYPES as readonly string[]).includes(type)) {
    return failure('unsupported_image', `portrait: send a PNG, JPEG or WebP image with its Content-Type (${PORTRAIT_TYPES.join(', ')}), not "${type || 'none'}"`, field, 415);
  }
  if (!Buffer.isBuffer(body) || body.length === 0) return failure('invalid_image', 'portrait: the request carries no image', field, 400);
  if (body.length > MAX_PORTRAIT_BYTES) return failure('image_too_large', portraitTooLarge(body.length), field, 413);
  const actual = imageTypeOf(body);
  if (actual === null) return failure('unsupported_image', `portrait: the content is not a PNG, JPEG or WebP image (its first bytes are none of theirs), though it was sent as ${type}`, field, 415);
  if (actual !== type) return failure('unsupported_image', `portrait: the content is ${actual}, not ${type} as the request says`, field, 415);
  return { ok: true, value: { contentType: actual, data: body, digest: createHash('sha256').update(body).digest('hex') } };
}

export function portraitTooLarge(bytes?: number): string {
  return `portrait: the image${bytes === undefined ? '' : ` (${bytes} bytes)`} is larger than the limit of ${MAX_PORTRAIT_BYTES / 1024} KiB (${MAX_PORTRAIT_BYTES} bytes)`;
}

/** A portrait as an export file carries it: the image in base64, with its type and SHA-256 digest. */
export interface ExportedPortrait {
  contentType: string;
  digest: string;
  data: string;
}

/** Longest base64 text of a portrait within the size limit. */
export const MAX_EXPORTED_PORTRAIT_CHARS = Math.ceil(MAX_PORTRAIT_BYTES / 3) * 4;

/** The portraits of a table for an export or a backup, by character id: those `keep` lets through. */
export async function exportPortraits(store: Store, tableId: string, keep: (characterId: string) => boolean = () => true): Promise<Record<string, ExportedPortrait>> {
  const out: Record<string, ExportedPortrait> = {};
  for (const characterId of Object.keys(await store.listPortraits(tableId)).sort()) {
    if (!keep(characterId)) continue;
    const p = await store.getPortrait(tableId, characterId);
    if (p) out[characterId] = { contentType: p.contentType, digest: p.digest, data: p.data.toString('base64') };
  }
  return out;
}

/**
 * Checks a portrait read from an export file exactly as an upload is checked (type, size, first
 * bytes), and that its digest is the image's own.
 */
export function checkExportedPortrait(p: ExportedPortrait): Outcome<Portrait> {
  if (p.data.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(p.data)) return failure('invalid_image', 'portrait: data is not base64 text', field, 400);
  const checked = checkPortrait(Buffer.from(p.data, 'base64'), p.contentType);
  if (!checked.ok) return checked;
  if (checked.value.digest !== p.digest) return failure('invalid_image', `portrait: the digest ${JSON.stringify(p.digest)} is not the image's SHA-256 (${checked.value.digest})`, { field: 'portrait.digest' }, 400);
  return checked;
}
