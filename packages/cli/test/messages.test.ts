import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closestWord } from '../src/args';
import { cli } from './helpers';

const tmp = mkdtempSync(join(tmpdir(), 'personae-messages-'));
const SHEET = 'examples/characters/dwarf-iron-constitution.yaml';
const SCENARIO = 'examples/scenarios/cultist-sword-fight.yaml';

describe('messages that say what went wrong', () => {
  it('a tab used for indentation is named, with its lines, in one line', async () => {
    const file = join(tmp, 'tabs.yaml');
    writeFileSync(file, 'name: Brogan\nattributes:\n\tcompetence: 3\n\tprowess: 4\n');
    const r = await cli('sheet', 'check', file);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^personae: tabs\.yaml \(line 3\): lines 3, 4 are indented with a tab character.*spaces only/);
    const scenario = join(tmp, 'tab-scenario.yaml');
    writeFileSync(scenario, 'title: x\ncharacters:\n\t- sheet: a.yaml\n');
    const s = await cli('replay', scenario);
    expect(s.code).toBe(2);
    expect(s.stderr).toMatch(/^personae: tab-scenario\.yaml \(line 3\): line 3 is indented with a tab character/);
  });

  it('every line sheet check prints about an unreadable sheet starts with "personae:"', async () => {
    const file = join(tmp, 'broken.yaml');
    writeFileSync(file, 'name: A\nconcept: [oops\n');
    const r = await cli('sheet', 'check', file);
    expect(r.code).toBe(2);
    expect(r.stderr.length).toBeGreaterThan(0);
    for (const line of r.stderr.trimEnd().split('\n')) expect(line).toMatch(/^personae: /);
    const missing = await cli('sheet', 'show', join(tmp, 'nope.yaml'));
    expect(missing.stderr).toMatch(/^personae: cannot read .*nope\.yaml: no such file\n$/);
  });

  it('a misspelt skill gets a "did you mean" with the skill on the sheet', async () => {
    const r = await cli('roll', '--sheet', SHEET, '--skill', 'Warhamer', 'vs', '2d10+3');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/has no skill "Warhamer"; did you mean "Warhammer"\?/);
    const far = await cli('roll', '--sheet', SHEET, '--skill', 'Astronomy', 'vs', '2d10+3');
    expect(far.code).toBe(2);
    expect(far.stderr).not.toMatch(/did you mean/);
    expect(far.stderr).toMatch(/has no skill "Astronomy", so it rolls unskilled/);
  });

  it('a misspelt command or flag gets a "did you mean"', async () => {
    expect((await cli('rol', '3d10', 'vs', '2d10')).stderr).toMatch(/unknown command 'rol'.*Did you mean roll\?/);
    expect((await cli('roll', '3d10', 'vs', '2d10', '--sed', '3')).stderr).toMatch(/unknown option '--sed'.*Did you mean --seed\?/);
  });

  it('a character sheet given to replay, or a scenario to sheet check, says which file it is', async () => {
    const r = await cli('replay', SHEET);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^personae: dwarf-iron-constitution\.yaml: this is a character sheet, not a scenario/);
    const s = await cli('sheet', 'check', SCENARIO);
    expect(s.code).toBe(2);
    expect(s.stderr).toMatch(/^personae: cultist-sword-fight\.yaml \(line 1\): this is a scenario, not a character sheet/);
  });
});

describe('closestWord', () => {
  it('finds a word one or two edits away, ignoring case, and nothing farther', () => {
    expect(closestWord('Warhamer', ['Dodge', 'Warhammer'])).toBe('Warhammer');
    expect(closestWord('dogde', ['Dodge', 'Block'])).toBe('Dodge');
    expect(closestWord('BLOCK', ['Dodge', 'Block'])).toBe('Block');
    expect(closestWord('Astronomy', ['Dodge', 'Block'])).toBeUndefined();
    expect(closestWord('x', [])).toBeUndefined();
  });
});
