import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Links the server must be able to show again (the invite, to the GM on another device), kept sealed:
 * AES-256-GCM with a key the database never holds, bound to the table's id. Whoever reads the database
 * alone learns nothing of the link; the key lives in the data directory (`link-key`, readable by the
 * server's user only) or, for several nodes sharing one database, in the environment (LINK_KEY).
 */
export interface Sealer {
  seal(tableId: string, secret: string): string;
  /** The secret, or null when the sealed text was not made by this key for this table. */
  open(tableId: string, sealed: string): string | null;
}

const KEY_FILE = 'link-key';

export function sealerWithKey(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error(`the link key must be 32 bytes, not ${key.length}`);
  return {
    seal(tableId, secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(tableId, 'utf8'));
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(tableId, sealed) {
      const [v, iv, tag, body] = sealed.split('.');
      if (v !== 'v1' || !iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(tableId, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

/** The sealer of LINK_KEY (base64 of 32 bytes) if given, else of `link-key` in `dir`, made on first use. */
export function loadSealer(dir: string, envKey?: string): Sealer {
  if (envKey) return sealerWithKey(Buffer.from(envKey, 'base64'));
  const file = join(dir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, randomBytes(32), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  return sealerWithKey(readFileSync(file));
}
