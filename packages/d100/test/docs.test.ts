import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OPTION_NAMES, optionsMarkdown, sheetSchemaText } from '../src';

const doc = (name: string) => readFileSync(fileURLToPath(new URL(`../../../docs/d100/${name}`, import.meta.url)), 'utf8');

describe('docs/d100', () => {
  it('options.md and sheet.schema.json are the generated ones (npx tsx scripts/d100-docs.ts)', () => {
    expect(doc('options.md')).toBe(optionsMarkdown());
    expect(doc('sheet.schema.json')).toBe(sheetSchemaText());
  });
  it('options.md documents every option', () => {
    for (const name of OPTION_NAMES) expect(doc('options.md')).toContain(`## \`${name}\``);
  });
});
