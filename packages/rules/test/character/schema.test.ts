import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CharacterSheetSchema, characterSheetJsonSchema } from '../../src/character';
import { ROOT } from './helpers';
import { SCHEMAS, render } from '../../../../scripts/gen-schemas';

describe('published JSON Schema', () => {
  it('docs/character-sheet.schema.json is the one scripts/gen-schemas.ts generates', () => {
    const committed = readFileSync(join(ROOT, 'docs/character-sheet.schema.json'), 'utf8');
    expect(committed).toBe(render(characterSheetJsonSchema()));
    expect(SCHEMAS.map((s) => s.file)).toContain('docs/character-sheet.schema.json');
  });
  it('uses the rulebook words as keys', () => {
    const schema = characterSheetJsonSchema() as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['version', 'name', 'concept', 'creationPoints', 'attributes', 'priorities', 'skills', 'specialAbilities', 'powers', 'talents', 'gear']),
    );
    expect(schema.required).toEqual(expect.arrayContaining(['version', 'name', 'concept', 'creationPoints', 'attributes', 'priorities']));
  });
  it('refuses unknown keys', () => {
    expect(CharacterSheetSchema.safeParse({ version: 1, name: 'a', concept: 'b', creationPoints: 20, extra: 1 }).success).toBe(false);
  });
});
