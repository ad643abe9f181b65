import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHARACTER_RULE_NAMES, ENCOUNTER_SECTIONS } from '../src/index';
import { rulesDoc } from '../src/rules-doc';

const FILE = new URL('../../../docs/rules.md', import.meta.url);

describe('docs/rules.md, generated from the registries (src/character/rules.ts, src/encounter/sections.ts)', () => {
  const doc = readFileSync(FILE, 'utf8');

  it('is up to date: run node --import tsx scripts/gen-rules-doc.ts after changing a registry', () => {
    expect(rulesDoc(doc)).toBe(doc);
  });

  it('names every character rule and every section the encounter cites', () => {
    for (const name of CHARACTER_RULE_NAMES) expect(doc).toContain(`| \`${name}\` |`);
    for (const sections of Object.values(ENCOUNTER_SECTIONS)) for (const section of Object.keys(sections)) expect(doc).toContain(`"${section}" |`);
  });

  it('tells a stale file from a current one', () => {
    const stale = doc.replace(/\| `creation-points` \|[^\n]*\n/, '');
    expect(stale).not.toBe(doc);
    expect(rulesDoc(stale)).toBe(doc);
  });
});
