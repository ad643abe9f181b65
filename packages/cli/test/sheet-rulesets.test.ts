import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const at = (p: string) => join(ROOT, 'examples', p);

describe('personae sheet check for the sheets of other registered rulesets', () => {
  it('checks a d100 sheet with the d100 sheet check: legal exits 0', async () => {
    const r = await cli('sheet', 'check', at('d100/evoker-makoto.yaml'));
    expect(r.exitCodeSet).toBe(0);
    expect(r.stdout).toContain('a legal d100 combat rules sheet');
  });

  it('names each problem of an illegal d100 sheet with its field and value, and exits 1', async () => {
    const r = await cli('sheet', 'check', at('d100/invalid/bad-affinity.yaml'), '--json');
    expect(r.exitCodeSet).toBe(1);
    const out = JSON.parse(r.stdout) as { ruleset: string; valid: boolean; errors: { field: string; value?: unknown }[] };
    expect(out.ruleset).toBe('d100');
    expect(out.valid).toBe(false);
    expect(out.errors).toContainEqual(expect.objectContaining({ field: 'affinities.fire', value: 'immune' }));
  });

  it('checks a Lucidity sheet with its rule cited, and refuses a ruleset it does not know by name', async () => {
    const r = await cli('sheet', 'check', at('lucidity/illegal/not-the-standard-array.yaml'));
    expect(r.exitCodeSet).toBe(1);
    expect(r.stdout).toContain('lucidity-primary-character.txt "Generating Attributes"');
    const dir = mkdtempSync(join(tmpdir(), 'personae-sheet-'));
    writeFileSync(join(dir, 'x.yaml'), 'ruleset: gurps\nname: X\n');
    const unknown = await cli('sheet', 'check', join(dir, 'x.yaml'));
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('"gurps"');
    expect(unknown.stderr).toContain('d100');
  });
});
