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
  /** index.html is revalidated every time; other files may be cached for a short while. */
  cacheControl: string;
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

  const found = await fileAt(candidate);
  if (found) return found;
  const index = await fileAt(join(candidate, 'index.html'));
  if (index) return index;
  if (extname(decoded) === '') return fileAt(join(base, 'index.html'));
  return null;
}

async function fileAt(path: string): Promise<StaticFile | null> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return null;
    const ext = extname(path).toLowerCase();
    return {
      path,
      size: info.size,
      contentType: TYPES[ext] ?? 'application/octet-stream',
      cacheControl: ext === '.html' ? 'no-cache' : 'public, max-age=300',
    };
  } catch {
    return null;
  }
}

export function openStaticFile(file: StaticFile) {
  return createReadStream(file.path);
}
