import { describe, expect, it } from 'vitest';
import { CHARACTER_RULES, CHARACTER_RULE_NAMES, checkCreation } from '../../src/character';
import { core, exampleFiles, INVALID, loadExample } from './helpers';

/** Rules only a command can break (checked by decideAdvancement), never a file on its own. */
const COMMAND_ONLY = ['purchase-target-exists', 'priorities-changeable'];

describe('examples/characters', () => {
  const files = exampleFiles();
  it('holds the concepts from the rulebook, a dwarf with Iron Constitution and companions', () => {
    const concepts = files.map((f) => loadExample(f).concept);
    expect(concepts).toEqual(expect.arrayContaining(['Post Civil War Entrepreneur', 'Desert Elf Singing Warrior', 'Merchant, Privateer, Scoundrel']));
    expect(files.map((f) => loadExample(f)).some((s) => s.specialAbilities.some((a) => a.culture && /Iron Constitution/.test(a.name)))).toBe(true);
    expect(files.map((f) => loadExample(f)).some((s) => s.role === 'companion')).toBe(true);
    expect(files.map((f) => loadExample(f)).some((s) => s.companions.length > 0)).toBe(true);
  });
  for (const file of files) {
    it(`${file} is a legal character`, () => {
      const report = checkCreation(loadExample(file), core);
      expect(report.errors).toEqual([]);
      expect(report.valid).toBe(true);
    });
  }
});

describe('examples/characters/invalid: one sheet per rule, each failing exactly that rule', () => {
  const files = exampleFiles(INVALID);
  it('covers every rule a sheet can break', () => {
    const covered = files.map((f) => f.replace(/\.(ya?ml|json)$/, ''));
    expect(covered.sort()).toEqual(CHARACTER_RULE_NAMES.filter((r) => !COMMAND_ONLY.includes(r)).sort());
  });
  for (const file of files) {
    const rule = file.replace(/\.(ya?ml|json)$/, '');
    it(`${file} breaks ${rule} and nothing else`, () => {
      const report = checkCreation(loadExample(file, INVALID), core);
      expect(report.valid).toBe(false);
      expect(report.errors.length).toBeGreaterThan(0);
      expect([...new Set(report.errors.map((e) => e.rule))]).toEqual([rule]);
      for (const e of report.errors) {
        expect(e.path).not.toBe('');
        expect(e.source).toContain(CHARACTER_RULES[rule as keyof typeof CHARACTER_RULES].source.section);
        expect(e.message).toMatch(/^[A-Z0-9"].*[.]$/);
      }
    });
  }
});

describe('docs/characters.md', () => {
  it('documents every rule by name with its source section', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { ROOT } = await import('./helpers');
    const doc = readFileSync(join(ROOT, 'docs/characters.md'), 'utf8');
    for (const name of CHARACTER_RULE_NAMES) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${name}\``));
      expect(row, name).toBeDefined();
      expect(row).toContain(CHARACTER_RULES[name].source.section.split(':')[0]!);
    }
  });
});
