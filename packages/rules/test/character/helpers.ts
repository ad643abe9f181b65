import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSheet, type CharacterSheet } from '../../src/character';
import { tableOptions } from '../../src/options/options';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const EXAMPLES = join(ROOT, 'examples/characters');
export const INVALID = join(EXAMPLES, 'invalid');
export const core = tableOptions('core-2011');

export function exampleFiles(dir = EXAMPLES): string[] {
  return readdirSync(dir)
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort();
}

export function loadExample(file: string, dir = EXAMPLES): CharacterSheet {
  const r = loadSheet(readFileSync(join(dir, file), 'utf8'), file);
  if (!r.ok) throw new Error(r.error.message);
  return r.sheet;
}

/** The smallest legal sheet to vary in tests: 20 creation points, nothing but attributes. */
export function baseSheet(over: Partial<CharacterSheet> = {}): CharacterSheet {
  const r = loadSheet(
    JSON.stringify({
      version: 1,
      name: 'Test',
      concept: 'Test Subject',
      creationPoints: 20,
      attributes: { competence: 5, prowess: 4, cunning: 3, power: 1, knowledge: 3, stature: 4 },
      priorities: { first: ['competence', 'prowess'], second: ['stature', 'cunning'], third: 'knowledge', handicap: 'power' },
    }),
    'base.json',
  );
  if (!r.ok) throw new Error(r.error.message);
  return { ...r.sheet, ...over };
}
