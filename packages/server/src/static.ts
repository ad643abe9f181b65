import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export interface StaticFile {
  path: string;
  size: number;
  contentType: string;
  /** See `cacheControlFor`. */
  cacheControl: string;
  /** A validator for conditional requests, from the size and modification time. */
  etag: string;
  lastModified: string;
}

/** Headers of a file that is the same for as long as its name is (Vite's hashed build output). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * index.html (also when it answers one of the app's own routes) is revalidated on every load, so a
 * new build reaches the browser at once. Everything under /assets/ carries a content hash in its
 * name: a new build makes new names, so those files may be kept for a year. Anything else (e.g. a
 * favicon with a fixed name) may be kept for five minutes, but for the service worker (sw.js), which
 * is revalidated like index.html.
 */
export function cacheControlFor(root: string, path: string): string {
  if (extname(path).toLowerCase() === '.html') return 'no-cache';
  // The service worker has a fixed name and lists the build's files: every load checks for a new one.
  if (path === join(resolve(root), 'sw.js')) return 'no-cache';
  if (path.startsWith(join(resolve(root), 'assets') + sep)) return IMMUTABLE;
  return 'public, max-age=300';
}

/** Whether the request's validators (If-None-Match, If-Modified-Since) match the file. */
export function notModified(file: StaticFile, headers: { 'if-none-match'?: string | undefined; 'if-modified-since'?: string | undefined }): boolean {
  const match = headers['if-none-match'];
  if (match !== undefined) {
    return match.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || t.replace(/^W\//, '') === file.etag.replace(/^W\//, '');
    });
  }
  const since = headers['if-modified-since'];
  if (since === undefined) return false;
  const at = Date.parse(since);
  return Number.isFinite(at) && Date.parse(file.lastModified) <= at;
}

/**
 * Maps a URL path to a file inside `root`, or null. Paths that try to leave the root are refused.
 * A path without a file extension that matches nothing falls back to index.html, so the web app's
 * own routes (/table/..., /join/...) load the app.
 */
export async function findStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  const base = resolve(root);
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const candidate = resolve(join(base, decoded));
  if (candidate !== base && !candidate.startsWith(base + sep)) return null;

  const found = await fileAt(base, candidate);
  if (found) return found;
  const index = await fileAt(base, join(candidate, 'index.html'));
  if (index) return index;
  if (extname(decoded) === '') return fileAt(base, join(base, 'index.html'));
  return null;
}

async function fileAt(root: string, path: string): Promise<StaticFile | null> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return null;
    const ext = extname(path).toLowerCase();
    return {
      path,
      size: info.size,
      contentType: TYPES[ext] ?? 'application/octet-stream',
      cacheControl: cacheControlFor(root, path),
      etag: `W/"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`,
      lastModified: info.mtime.toUTCString(),
    };
  } catch {
    return null;
  }
}

export function openStaticFile(file: StaticFile) {
  return createReadStream(file.path);
}
