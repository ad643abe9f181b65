import { readFileSync } from 'node:fs';
import { loadSheet } from '../../src/character';

/**
 * An example character from examples/characters, loaded and checked as a player's file is, and
 * returned as the plain JSON a client sends (a fresh copy on every call, so a test may change it).
 */
export function sheet(file: string): Record<string, unknown> {
  const loaded = loadSheet(readFileSync(new URL(`../../../../examples/characters/${file}`, import.meta.url), 'utf8'), file);
  if (!loaded.ok) throw new Error(`${file}: ${loaded.error.message}`);
  return JSON.parse(JSON.stringify(loaded.sheet));
}
