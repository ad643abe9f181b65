import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { registerSheetCommands } from '../src/commands/sheet';
import type { CliIo } from '../src/io';
import { checkCreation, loadSheet } from '@personae/rules/character';
import { tableOptions } from '@personae/rules/options/options';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const EXAMPLES = join(ROOT, 'examples/characters');
const INVALID = join(EXAMPLES, 'invalid');
const tmp = mkdtempSync(join(tmpdir(), 'personae-sheet-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function sheet(args: string[], stdin?: string): Promise<Outcome> {
  const out: string[] = [];
  const err: string[] = [];
  let code = 0;
  const input = stdin === undefined ? undefined : new PassThrough();
  const io: CliIo = {
    stdout: (s) => void out.push(s),
    stderr: (s) => void err.push(s),
    ...(input ? { stdin: input } : {}),
    setExitCode: (c) => void (code = c),
  };
  if (input) input.end(stdin);
  const program = new Command('personae').exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  registerSheetCommands(program, io);
  try {
    await program.parseAsync(['sheet', ...args], { from: 'user' });
  } catch (e) {
    err.push(String((e as Error).message));
    code = 2;
  }
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const examples = readdirSync(EXAMPLES).filter((f) => /\.(ya?ml|json)$/.test(f));
const invalid = readdirSync(INVALID).filter((f) => /\.ya?ml$/.test(f));

describe('personae sheet check', () => {
  for (const f of examples) {
    it(`exits 0 for the legal example ${f}`, async () => {
      const r = await sheet(['check', join(EXAMPLES, f)]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/is a legal character/);
    });
  }

  it('exits 1 for every invalid example and names the rule', async () => {
    for (const f of invalid) {
      const r = await sheet(['check', join(INVALID, f)]);
      expect(r.code, f).toBe(1);
      expect(r.stdout).toContain(`rule ${f.replace('.yaml', '')};`);
    }
  });

  it('prints a readable report: path, message, rule and source', async () => {
    const r = await sheet(['check', join(INVALID, 'priority-caps.yaml')]);
    expect(r.stdout).toContain('error  attributes.stature: Stature is 9 but a First-priority attribute can be at most 8 with 20 creation points.');
    expect(r.stdout).toContain('rule priority-caps; personae-core-2011.txt, "Step 3: Allocate Attribute Points"');
  });

  it('--json prints valid, errors, notes and derived', async () => {
    const r = await sheet(['check', '--json', join(EXAMPLES, 'merchant-privateer-scoundrel.yaml')]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.valid).toBe(true);
    expect(json.errors).toEqual([]);
    expect(Array.isArray(json.notes)).toBe(true);
    expect(json.derived).toMatchObject({
      potential: 4,
      potentialThreshold: 6,
      maxSkillDice: 6,
      prowessPool: 12,
      hitsBeforeInjured: 6,
      attributeCaps: { first: 8, second: 6, third: 4, handicap: 2 },
      limits: { skills: 4, specialAbilities: 5, powers: 1, talents: 3 },
    });
    const bad = JSON.parse((await sheet(['check', '--json', join(INVALID, 'talents-within-knowledge.yaml')])).stdout);
    expect(bad.valid).toBe(false);
    expect(bad.errors[0]).toMatchObject({ path: 'talents', rule: 'talents-within-knowledge' });
    expect(Object.keys(bad.errors[0])).toEqual(expect.arrayContaining(['path', 'rule', 'message']));
  });

  it('exits 2 for a missing file, broken YAML, unknown keys and wrong types, with the line', async () => {
    expect((await sheet(['check', join(tmp, 'nope.yaml')])).code).toBe(2);
    const broken = join(tmp, 'broken.yaml');
    writeFileSync(broken, 'name: A\nconcept: [oops\n');
    const r = await sheet(['check', broken]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/broken\.yaml \(line \d+\): YAML syntax error/);
    const unknown = join(tmp, 'unknown.yaml');
    writeFileSync(unknown, readFileSync(join(EXAMPLES, 'dwarf-iron-constitution.yaml'), 'utf8').replace('concept:', 'kharma: 3\nconcept:'));
    const u = await sheet(['check', unknown]);
    expect(u.code).toBe(2);
    expect(u.stderr).toMatch(/line 5.*unknown key "kharma"/);
    const j = JSON.parse((await sheet(['check', '--json', unknown])).stdout);
    expect(j).toMatchObject({ valid: false, errors: [{ rule: 'sheet-format', line: 5 }] });
  });

  it('takes the table options: --rules and repeated --option', async () => {
    const f = join(INVALID, 'companions-per-character.yaml');
    expect((await sheet(['check', f])).code).toBe(1);
    expect((await sheet(['check', f, '--option', 'companionsPerCharacter=2'])).code).toBe(0);
    const elf = join(EXAMPLES, 'desert-elf-singing-warrior.yaml');
    const later = JSON.parse((await sheet(['check', '--json', elf, '--rules', 'srd-v4', '--option', 'potential=later', '--option', 'creationPoints=30'])).stdout);
    expect(later.derived.potential).toBe(3);
    expect(later.notes.some((n: { path?: string }) => n.path === 'creationPoints')).toBe(false);
    const bad = await sheet(['check', elf, '--option', 'potential=sideways']);
    expect(bad.code).toBe(2);
  });
});

describe('personae sheet show', () => {
  it('lays the character out like a paper sheet', async () => {
    const r = await sheet(['show', join(EXAMPLES, 'dwarf-iron-constitution.yaml')]);
    expect(r.code).toBe(0);
    for (const heading of ['ATTRIBUTES', 'SKILLS', 'TALENTS', 'SPECIAL ABILITIES', 'POWERS', 'HEALTH', 'GEAR', 'ADVANCEMENT']) expect(r.stdout).toContain(`-- ${heading}`);
    expect(r.stdout).toContain('Dwarf - Iron Constitution (R): 1 more hit before Injured');
    expect(r.stdout).toMatch(/Hits before Injured: 8 \(1 base \+ 6 Stature \+ 1 Dwarf - Iron Constitution\)/);
    expect(r.stdout).toMatch(/Stature\s+First\s+6\s+8/);
    expect(r.stdout).toContain('Legal character.');
  });
  it('shows companions and the advancement history', async () => {
    const r = await sheet(['show', join(EXAMPLES, 'northern-beastmaster.yaml')]);
    expect(r.stdout).toContain('-- COMPANIONS');
    expect(r.stdout).toContain('GREY FANG');
    expect(r.stdout).toContain('#2 promote companion Grey Fang, 1 from #1');
  });
  it('exits 2 for an unreadable file', async () => {
    expect((await sheet(['show', join(tmp, 'missing.yaml')])).code).toBe(2);
  });
});

describe('personae sheet new', () => {
  it('builds a legal sheet from flags alone', async () => {
    const out = join(tmp, 'flags.yaml');
    const r = await sheet([
      'new', '--yes', '--name', 'Tamsin', '--concept', 'Fen Witch', '--first', 'power,knowledge', '--second', 'cunning,competence',
      '--third', 'stature', '--handicap', 'prowess', '--attribute', 'power=6', '--attribute', 'knowledge=5', '--attribute', 'cunning=4',
      '--attribute', 'competence=3', '--skill', 'Hexcraft:power:3', '--skill', 'Staff:stature:2:weapon=Blackthorn Staff',
      '--talent', 'Fenspeech:language:native', '--talent', 'Herbal Lore:expertise', '--ability', 'Fen-Born:culture', '--power', 'Witchfire:instant',
      '--out', out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const loaded = loadSheet(readFileSync(out, 'utf8'), 'flags.yaml');
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(checkCreation(loaded.sheet, tableOptions()).valid).toBe(true);
    expect(loaded.sheet.gear.map((g) => g.name)).toEqual(['Blackthorn Staff']);
    expect(loaded.sheet.attributes).toEqual({ competence: 3, prowess: 0, cunning: 4, power: 6, knowledge: 5, stature: 2 });
  });

  it('guides the six steps interactively and writes a legal sheet', async () => {
    const out = join(tmp, 'asked.json');
    const answers = [
      'main', 'Bram', 'Hedge Knight', '20',
      'stature, prowess', 'competence, cunning', 'power', 'knowledge',
      '6', '5', '4', '3', '1', '1',
      'Longsword:stature:4:weapon=Longsword', 'Shield:stature:3:shield=Kite Shield', 'Wrestle:strength', '',
      'Common:language:native', '',
      'Oathsworn:culture', 'Steady Arm', '',
      'Blessing:maintain', '',
      'Chain Shirt:armor', '',
    ].join('\n');
    const r = await sheet(['new', '--out', out], answers);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"strength" is not an attribute');
    for (const step of ['Step 1', 'Step 2', 'Step 3', 'Step 4', 'Step 5', 'Step 6']) expect(r.stdout).toContain(step);
    expect(r.stdout).toContain('Stature (First, at most 8; 20 points left)');
    const loaded = loadSheet(readFileSync(out, 'utf8'), 'asked.json');
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.sheet).toMatchObject({ name: 'Bram', concept: 'Hedge Knight', attributes: { stature: 6, prowess: 5, competence: 4, cunning: 3, power: 1, knowledge: 1 } });
    expect(loaded.sheet.skills.map((s) => s.name)).toEqual(['Longsword', 'Shield']);
    expect(loaded.sheet.gear.map((g) => g.name).sort()).toEqual(['Chain Shirt', 'Kite Shield', 'Longsword']);
    expect(checkCreation(loaded.sheet, tableOptions()).valid).toBe(true);
  });

  it('asks again after a bad answer, and fills in defaults when the input ends', async () => {
    const r = await sheet(['new'], ['main', 'Ida', 'Courier', 'three', '20', 'stature,stature', 'x', 'y', 'z'].join('\n'));
    // Priorities never became valid before the input ended.
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('A whole number of at least 5, please.');
    const ok = await sheet(['new'], ['main', 'Ida', 'Courier', '', 'cunning,prowess', 'stature,competence', 'knowledge', 'power'].join('\n'));
    expect(ok.code, ok.stderr).toBe(0);
    const loaded = loadSheet(ok.stdout.slice(ok.stdout.indexOf('version:')), 'ida.yaml');
    expect(loaded.ok).toBe(true);
  });

  it('refuses bad flags with a clear message', async () => {
    const r = await sheet(['new', '--yes', '--name', 'A', '--concept', 'B', '--first', 'power']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/First priority takes 2 attributes/);
  });

  it('whatever the flags, a sheet it writes passes the check (property)', async () => {
    const attrs = ['competence', 'prowess', 'cunning', 'power', 'knowledge', 'stature'];
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray(attrs, { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 5, max: 40 }),
        fc.array(fc.tuple(fc.constantFrom('Sword', 'Bow', 'Lore', 'Dodge'), fc.constantFrom(...attrs), fc.integer({ min: 0, max: 9 })), { maxLength: 5 }),
        async (order, points, skills) => {
          const r = await sheet([
            'new', '--yes', '--name', 'P', '--concept', 'Q', '--creation-points', String(points),
            '--first', `${order[0]},${order[1]}`, '--second', `${order[2]},${order[3]}`, '--third', order[4]!, '--handicap', order[5]!,
            ...skills.flatMap(([n, a, d]) => ['--skill', `${n}:${a}:${d}`]),
          ]);
          expect(r.code, r.stderr).toBe(0);
          const loaded = loadSheet(r.stdout, 'p.yaml');
          expect(loaded.ok).toBe(true);
          if (loaded.ok) expect(checkCreation(loaded.sheet, tableOptions()).errors).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('the personae binary', () => {
  const main = join(ROOT, 'packages/cli/src/main.ts');
  const wired = existsSync(main) && readFileSync(main, 'utf8').includes('registerSheetCommands');
  it.skipIf(!wired)('node --import tsx packages/cli/src/main.ts sheet check exits 0, 1 and 2', () => {
    const runIt = (file: string) => spawnSync(process.execPath, ['--import', 'tsx', main, 'sheet', 'check', file], { cwd: ROOT, encoding: 'utf8' });
    expect(runIt(join(EXAMPLES, 'post-civil-war-entrepreneur.yaml')).status).toBe(0);
    expect(runIt(join(INVALID, 'priority-order.yaml')).status).toBe(1);
    expect(runIt(join(tmp, 'absent.yaml')).status).toBe(2);
  });
});
