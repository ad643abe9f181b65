import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SHEET_MIGRATIONS, compactSheet, loadSheet, migrateSheet, sheetToJson, sheetToYaml } from '../../src/character';
import { EXAMPLES, exampleFiles, loadExample } from './helpers';

const good = readFileSync(join(EXAMPLES, 'post-civil-war-entrepreneur.yaml'), 'utf8');

describe('loadSheet', () => {
  it('reads YAML and JSON sheets', () => {
    expect(loadSheet(good, 'a.yaml').ok).toBe(true);
    expect(loadSheet(readFileSync(join(EXAMPLES, 'companion-hawk.json'), 'utf8'), 'hawk.json').ok).toBe(true);
  });

  it('reports YAML syntax errors with their line', () => {
    const r = loadSheet('version: 1\nname: Ann\nconcept: [unclosed\nattributes: {}\n', 'bad.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toMatch(/^bad\.yaml \(line \d+\): YAML syntax error/);
    expect(r.error.line).toBeGreaterThanOrEqual(3);
  });

  it('reports duplicate keys as syntax errors', () => {
    const r = loadSheet('name: A\nname: B\n', 'dup.yaml');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.line).toBe(2);
  });

  it('reports JSON syntax errors with their line', () => {
    const r = loadSheet('{\n  "version": 1,\n  "name": "A",,\n}', 'bad.json');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toMatch(/JSON syntax error/);
      expect(r.error.line).toBe(3);
    }
  });

  it('reports unknown keys with the line of the key', () => {
    const text = good.replace('  stature: 3\n', '  stature: 3\n  charm: 2\n');
    const r = loadSheet(text, 'x.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.path).toBe('attributes');
    expect(r.error.message).toContain('unknown key "charm"');
    expect(text.split('\n')[r.error.line! - 1]).toBe('  charm: 2');
  });

  it('reports wrong types with the field path and line', () => {
    const text = good.replace('  prowess: 3', '  prowess: three');
    const r = loadSheet(text, 'x.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.path).toBe('attributes.prowess');
    expect(text.split('\n')[r.error.line! - 1]).toBe('  prowess: three');
    expect(r.error.message).toMatch(/expected number/);
  });

  it('reports every problem, including missing fields, at once', () => {
    const r = loadSheet('version: 1\nname: A\nskills:\n  - { name: Sword, attribute: strength, dice: 2 }\n', 'x.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const paths = r.error.issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['concept', 'creationPoints', 'attributes', 'priorities', 'skills[0].attribute']));
    expect(r.error.issues.find((i) => i.path === 'skills[0].attribute')?.line).toBe(4);
  });

  it('refuses a file that is not a mapping, and empty files, without throwing', () => {
    for (const text of ['', '- a\n- b\n', '42', 'null']) {
      const r = loadSheet(text, 'x.yaml');
      expect(r.ok).toBe(false);
    }
  });

  it('never throws, whatever the text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const r = loadSheet(text, 'fuzz.yaml');
        return typeof r.ok === 'boolean';
      }),
      { numRuns: 300 },
    );
  });
});

describe('migrations', () => {
  it('a sheet without a version is format 0 and is upgraded to version 1', () => {
    const text = good.replace('version: 1\n', '');
    const r = loadSheet(text, 'old.yaml');
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.migratedFrom).toBe(0);
      expect(r.sheet.version).toBe(1);
      expect(r.sheet).toEqual(loadExample('post-civil-war-entrepreneur.yaml'));
    }
  });
  it('a current sheet passes through unchanged (no-op)', () => {
    const raw = { version: 1, name: 'A' };
    const m = migrateSheet(raw);
    expect(m.ok && m.applied.length === 0 && m.value === raw).toBe(true);
  });
  it('every step goes up by one, from 0 to the current version', () => {
    SHEET_MIGRATIONS.forEach((m, i) => {
      expect(m.from).toBe(i);
      expect(m.to).toBe(i + 1);
    });
  });
  it('runs several steps in order', () => {
    const steps = [
      { from: 0, to: 1, summary: '', up: (r: Record<string, unknown>) => ({ ...r, version: 1, a: 1 }) },
      { from: 1, to: 2, summary: '', up: (r: Record<string, unknown>) => ({ ...r, version: 2, b: (r.a as number) + 1 }) },
    ];
    const m = migrateSheet({}, steps, 2);
    expect(m).toMatchObject({ ok: true, from: 0, value: { version: 2, a: 1, b: 2 } });
  });
  it('refuses sheets from a newer version', () => {
    const r = loadSheet(good.replace('version: 1', 'version: 7'), 'new.yaml');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toMatch(/newer than this program/);
      expect(r.error.line).toBe(2);
    }
  });
});

describe('writing sheets', () => {
  for (const file of exampleFiles()) {
    it(`${file} survives writing to YAML and JSON and reading back`, () => {
      const sheet = loadExample(file);
      for (const [text, name] of [[sheetToYaml(sheet), 'x.yaml'], [sheetToJson(sheet), 'x.json']] as const) {
        const r = loadSheet(text, name);
        expect(r.ok).toBe(true);
        if (r.ok) expect(r.sheet).toEqual(sheet);
      }
    });
  }
  it('leaves out fields at their defaults', () => {
    const compact = compactSheet(loadExample('dwarf-iron-constitution.yaml')) as Record<string, unknown>;
    expect(compact).not.toHaveProperty('history');
    expect(compact).not.toHaveProperty('criticals');
    expect(compact).not.toHaveProperty('role');
  });
});
