import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, cliJson, expectUsageError } from './helpers';

const DWARF = 'examples/characters/dwarf-iron-constitution.yaml';
const MERCHANT = 'examples/characters/merchant-privateer-scoundrel.yaml';
const ELF = 'examples/characters/desert-elf-singing-warrior.yaml';
const ENTREPRENEUR = 'examples/characters/post-civil-war-entrepreneur.yaml';
const SELLSWORD = 'examples/characters/wounded-sellsword.yaml';

type SheetJson = {
  file: string;
  skill: string;
  unskilled: boolean;
  attribute: string;
  status: string;
  qualities: string[];
  abilities: string[];
  expertise: string | null;
  modifiers: { value: number; source: string }[];
  extraHits: number;
  explanation: string[];
};
type Side = { name: string; expression: string; pool: number; dice: number[]; modifier: number; source: string; sheet?: SheetJson };

const tmp = mkdtempSync(join(tmpdir(), 'personae-roll-sheet-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of an example sheet with some text replaced, in a scratch directory. */
function variant(from: string, name: string, edit: (text: string) => string): string {
  const file = join(tmp, name);
  writeFileSync(file, edit(readFileSync(from, 'utf8')));
  return file;
}

/** An error run: exit 2, nothing on stdout, one line on stderr. */
const refused = (...argv: string[]): Promise<string> => expectUsageError(argv);

describe('personae roll --sheet: sides from character sheets', () => {
  it('the dwarf attacks with his Warhammer against the privateer\'s Dodge: dice, attribute and kind come from the sheets', async () => {
    const r = await cli('roll', '--sheet', DWARF, '--skill', 'Warhammer', 'vs', '--sheet', MERCHANT, '--skill', 'Dodge', '--seed', '3');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Attack challenge: Brogan Ironhand with Warhammer vs Marisol "Gull" Vance with Dodge\n/);
    expect(r.stdout).toContain('kind attack (Warhammer is a weapon skill; --kind to change)');
    expect(r.stdout).toContain('Brogan Ironhand (examples/characters/dwarf-iron-constitution.yaml) issues the attack challenge with Warhammer:');
    expect(r.stdout).toContain('Warhammer: 6 dice, its rating on the sheet (personae-core-2011.txt "Skills").');
    expect(r.stdout).toContain('Stature +6: the attribute Warhammer adds by default');
    // Iron Constitution adds hits before Injured: it is on the sheet, and says why it does not touch the roll.
    expect(r.stdout).toContain('Not on this roll: Dwarf - Iron Constitution: 1 more hit before Injured; Shield Bash: Shield Wall, attack challenges only.');
    expect(r.stdout).toContain('Dodge: 4 dice, its rating on the sheet');
    expect(r.stdout).toContain('Brogan Ironhand: Warhammer 6 dice = 6 dice.');
    expect(r.stdout).toContain('Marisol "Gull" Vance\'s modifier: +5 Cunning = +5.');

    const j = await cliJson('roll', '--sheet', DWARF, '--skill', 'Warhammer', 'vs', '--sheet', MERCHANT, '--skill', 'Dodge', '--seed', '3', '--json');
    expect(j).toMatchObject({ command: 'roll', kind: 'opposed', challenge: 'attack', seed: 3 });
    const actor = j.actor as Side;
    const reactor = j.reactor as Side;
    expect(actor).toMatchObject({ name: 'Brogan Ironhand', expression: '6d10+6', pool: 6, modifier: 6, source: 'seeded' });
    expect(actor.sheet).toMatchObject({ file: DWARF, skill: 'Warhammer', unskilled: false, attribute: 'stature', status: 'unharmed', qualities: [], abilities: [], expertise: null, extraHits: 0 });
    expect(reactor).toMatchObject({ name: 'Marisol "Gull" Vance', expression: '4d10+5', pool: 4, modifier: 5 });
    expect(reactor.sheet?.explanation[0]).toMatch(/answers the attack challenge with Dodge:$/);
  });

  it('is reproducible with a seed', async () => {
    const args = ['roll', '--sheet', DWARF, '--skill', 'Warhammer', 'vs', '--sheet', MERCHANT, '--skill', 'Dodge', '--seed', '11'];
    expect((await cli(...args)).stdout).toBe((await cli(...args)).stdout);
  });

  it('an injured sheet loses a die (personae-core-2011.txt "Injury and Death"), and only the status on the sheet decides it', async () => {
    const hurt = await cliJson('roll', '--sheet', DWARF, '--skill', 'Warhammer', 'vs', '--sheet', SELLSWORD, '--skill', 'Dodge', '--seed', '1', '--json');
    const reactor = hurt.reactor as Side;
    expect(reactor.sheet?.status).toBe('injured');
    expect(reactor.pool).toBe(2);
    expect(hurt.explanation).toContain('Tomas Reyne: Dodge 3 dice -1 die Injured = 2 dice.');
    expect(reactor.sheet?.explanation).toContain('  Health Injured (health.status): 1 die fewer (personae-core-2011.txt "Injury and Death").');

    const healed = variant(SELLSWORD, 'healed.yaml', (t) => t.replace('health: { hits: 5, status: injured }', 'health: { hits: 0, status: unharmed }'));
    const fine = await cliJson('roll', '--sheet', DWARF, '--skill', 'Warhammer', 'vs', '--sheet', healed, '--skill', 'Dodge', '--seed', '1', '--json');
    expect((fine.reactor as Side).pool).toBe(3);

    const wounded = variant(DWARF, 'wounded.yaml', (t) => `${t}health: { hits: 8, status: wounded }\n`);
    const w = await cliJson('roll', '--sheet', wounded, '--skill', 'Warhammer', 'vs', '2d10', '--seed', '1', '--json');
    expect((w.actor as Side).pool).toBe(4);
    // Option injuryPenaltyLasts = violent-encounters: no penalty on a challenge outside one.
    const calm = await cliJson('roll', '--sheet', wounded, '--skill', 'Stonecraft', 'vs', '2d10', '--option', 'injuryPenaltyLasts=violent-encounters', '--seed', '1', '--json');
    expect((calm.actor as Side).pool).toBe(4);
    expect((calm.actor as Side).sheet?.explanation).toContain('  Health Wounded (health.status): no penalty outside a violent encounter (option injuryPenaltyLasts = violent-encounters).');
  });

  it('a Quality applies without being named: the sellsword\'s mail ignores one of the attacker\'s dice', async () => {
    const j = await cliJson('roll', '--sheet', DWARF, '--skill', 'Warhammer', 'vs', '--sheet', SELLSWORD, '--skill', 'Dodge', '--seed', '1', '--json');
    const actor = j.actor as Side;
    const reactor = j.reactor as Side;
    expect(reactor.sheet?.qualities).toEqual(['Black Company Mail']);
    expect(reactor.sheet?.abilities).toEqual([]);
    expect(actor.pool).toBe(6);
    expect(actor.dice).toHaveLength(5);
    expect((j.explanation as string[]).some((l) => /^Brogan Ironhand's \d+ set aside by armor/.test(l))).toBe(true);
    // Armor counts only against an attack (personae-core-2011.txt "Armor").
    const talk = await cliJson('roll', '--sheet', DWARF, '--skill', 'Warhammer', '--kind', 'interaction', 'vs', '--sheet', SELLSWORD, '--skill', 'Dodge', '--seed', '1', '--json');
    expect((talk.actor as Side).dice).toHaveLength(6);
  });

  it('a Quality that adds to the result: Resonant Voice on Battle Song, not on Scimitar', async () => {
    const song = await cliJson('roll', '--sheet', ELF, '--skill', 'Battle Song', '--kind', 'power', 'vs', '2d10+3', '--seed', '2', '--json');
    expect((song.actor as Side).modifier).toBe(7 + 1);
    expect((song.actor as Side).sheet?.qualities).toEqual(['Resonant Voice']);
    const blade = await cliJson('roll', '--sheet', ELF, '--skill', 'Scimitar', 'vs', '2d10+3', '--seed', '2', '--json');
    expect((blade.actor as Side).modifier).toBe(5);
    expect((blade.actor as Side).sheet?.qualities).toEqual([]);
  });

  it('--ability applies one special ability; naming a Quality too is fine and says it needed no naming', async () => {
    const j = await cliJson('roll', '--sheet', ELF, '--skill', 'Scimitar', '--ability', 'Expert Scimitar', 'vs', '--sheet', DWARF, '--skill', 'Block', '--seed', '4', '--json');
    const actor = j.actor as Side;
    expect(actor.pool).toBe(6 + 2);
    expect(actor.sheet?.abilities).toEqual(['Expert Scimitar']);
    expect(actor.sheet?.explanation).toContain('  Expert Scimitar (--ability, its one special ability this turn): +2 dice (personae-core-2011.txt "Scope of Special Abilities").');
    const both = await cli('roll', '--sheet', ELF, '--skill', 'Battle Song', '--ability', 'Resonant Voice', '--ability', 'Desert Elf - Sun-Hardened', 'vs', '2d10', '--seed', '4');
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).toContain('Resonant Voice is a Quality: always in effect, it needs no choosing.');
  });

  it('a second special ability is refused, naming the file, the field and the rule', async () => {
    const line = await refused('roll', '--sheet', ENTREPRENEUR, '--skill', 'Haggle', '--ability', 'Silver Tongue', '--ability', 'Card Sharp', 'vs', '2d10');
    expect(line).toBe(
      'personae: examples/characters/post-civil-war-entrepreneur.yaml (specialAbilities): --ability: Josiah Whitcombe may benefit from one special ability a turn, not Silver Tongue and Card Sharp (Qualities excepted) (personae-core-2011.txt "Scope of Special Abilities")',
    );
  });

  it('refuses an ability the sheet lacks, and one whose scope does not cover the roll', async () => {
    expect(await refused('roll', '--sheet', DWARF, '--skill', 'Warhammer', '--ability', 'Rage', 'vs', '2d10')).toBe(
      'personae: examples/characters/dwarf-iron-constitution.yaml (specialAbilities): --ability "Rage": Brogan Ironhand has no special ability "Rage"; the sheet lists Dwarf - Iron Constitution, Shield Bash',
    );
    const line = await refused('roll', '--sheet', DWARF, '--skill', 'Warhammer', '--ability', 'shield bash', 'vs', '2d10');
    expect(line).toContain('--ability "shield bash": Shield Bash does not apply when issuing an attack challenge with Warhammer');
    expect(line).toContain('(personae-core-2011.txt "What Special Abilities Can Do")');
  });

  it('unskilled: one die when the sheet lacks the skill, with the attribute named, and says so', async () => {
    const j = await cliJson('roll', '--sheet', DWARF, '--skill', 'Sailing', '--attribute', 'prowess', 'vs', '2d10', '--seed', '1', '--json');
    const actor = j.actor as Side;
    expect(actor.pool).toBe(1);
    expect(actor.modifier).toBe(5);
    expect(actor.sheet).toMatchObject({ skill: 'Sailing', unskilled: true, attribute: 'prowess' });
    expect(actor.sheet?.explanation).toContain('  Sailing: not on the sheet, so unskilled: 1 die (personae-core-2011.txt "Skills").');
    expect(j.explanation).toContain('Brogan Ironhand: Sailing (unskilled) 1 die = 1 die.');
    const line = await refused('roll', '--sheet', DWARF, '--skill', 'Sailing', 'vs', '2d10');
    expect(line).toContain('examples/characters/dwarf-iron-constitution.yaml (skills): Brogan Ironhand has no skill "Sailing"');
    expect(line).toContain('name it with --attribute (personae-core-2011.txt "Skills")');
  });

  it('Block, Dodge and Resist are two dice for everyone (personae-core-2011.txt "Defense")', async () => {
    const j = await cliJson('roll', '--sheet', MERCHANT, '--skill', 'Cutlass', 'vs', '--sheet', DWARF, '--skill', 'dodge', '--seed', '5', '--json');
    const reactor = j.reactor as Side;
    expect(reactor.pool).toBe(2);
    expect(reactor.sheet?.skill).toBe('Dodge');
    expect(reactor.sheet?.explanation).toContain('  Dodge: 2 dice, the basic defense everyone has unlocked (personae-core-2011.txt "Defense").');
  });

  it('--attribute names another attribute than the skill\'s own', async () => {
    const j = await cliJson('roll', '--sheet', DWARF, '--skill', 'Warhammer', '--attribute', 'Prowess', 'vs', '2d10', '--seed', '1', '--json');
    expect((j.actor as Side).modifier).toBe(5);
    expect((j.actor as Side).sheet?.explanation[2]).toBe(
      '  Prowess +5: named with --attribute instead of Warhammer\'s Stature, as the GM may call for (personae-core-2011.txt "Skills").',
    );
    expect(await refused('roll', '--sheet', DWARF, '--skill', 'Warhammer', '--attribute', 'strength', 'vs', '2d10')).toContain('--attribute "strength": expected one of competence, prowess');
  });

  it('mixes sheet and dice sides, with labelled --modifier on either', async () => {
    const j = await cliJson('roll', '--sheet', DWARF, '--skill', 'Warhammer', '--modifier', '+1 high ground', 'vs', '2d10+3', '--modifier', '-2 blinded by the sun', '--seed', '6', '--json');
    const actor = j.actor as Side;
    const reactor = j.reactor as Side;
    expect(actor.modifier).toBe(7);
    expect(actor.sheet?.modifiers).toEqual([{ value: 1, source: 'high ground' }]);
    expect(reactor).toMatchObject({ name: 'Reactor', expression: '2d10+3', modifier: 1 });
    expect(reactor).not.toHaveProperty('sheet');
    expect(j.explanation).toContain('Brogan Ironhand\'s modifier: +6 Stature, +1 high ground (--modifier) = +7.');
    expect(j.explanation).toContain('Reactor\'s modifier: +3 from "2d10+3", -2 blinded by the sun (--modifier) = +1.');

    const other = await cliJson('roll', '[8,3]+2', 'vs', '--sheet', MERCHANT, '--skill', 'Dodge', '--seed', '6', '--json');
    expect(other).toMatchObject({ challenge: 'attack', actor: { name: 'Actor', expression: '[8,3]+2', source: 'given' }, reactor: { name: 'Marisol "Gull" Vance', pool: 4 } });
  });

  it('--unopposed with a sheet: the GM rolls one die fewer than the skill\'s rating (personae-core-2011.txt "Unopposed Challenges")', async () => {
    const j = await cliJson('roll', '--sheet', MERCHANT, '--skill', 'Sailing', '--unopposed', 'difficult', '--seed', '9', '--json');
    expect(j).toMatchObject({ kind: 'unopposed', difficulty: { value: 5, label: 'Difficult' } });
    expect(j.actor as Side).toMatchObject({ name: 'Marisol "Gull" Vance', pool: 4, modifier: 4 });
    expect((j.actor as Side).sheet?.qualities).toEqual(['Lucky Compass']);
    expect((j.reactor as Side).pool).toBe(3);
    const text = await cli('roll', '--sheet', MERCHANT, '--skill', 'Sailing', '--unopposed', 'difficult', '--seed', '9');
    expect(text.stdout).toMatch(/^Unopposed challenge: Marisol "Gull" Vance with Sailing against difficulty Difficult \(\+5\)\n/);
    expect(text.stdout).toContain('rolls against the difficulty with Sailing:');
  });

  it('reads --sheet=FILE, and flags in any order on their own side of "vs"', async () => {
    const a = await cliJson('roll', `--sheet=${DWARF}`, '--seed', '2', '--skill=Warhammer', 'vs', '--skill', 'Dodge', '--json', `--sheet=${MERCHANT}`);
    const b = await cliJson('roll', '--sheet', DWARF, '--skill', 'Warhammer', 'vs', '--sheet', MERCHANT, '--skill', 'Dodge', '--seed', '2', '--json');
    expect(a).toEqual(b);
  });

  it('refuses bad sheets and misplaced flags with one line', async () => {
    expect(await refused('roll', '--sheet', 'examples/characters/nope.yaml', '--skill', 'Dodge', 'vs', '2d10')).toBe('personae: --sheet examples/characters/nope.yaml: cannot read it: no such file');
    const broken = variant(DWARF, 'broken.yaml', (t) => t.replace('dice: 6, weapon: Warhammer', 'dice: six, weapon: Warhammer'));
    const line = await refused('roll', '--sheet', broken, '--skill', 'Warhammer', 'vs', '2d10');
    expect(line).toContain(`${broken} (line 20, skills[0].dice): expected number, found the text "six" (the character sheet format, docs/characters.md)`);
    const dead = variant(DWARF, 'dead.yaml', (t) => `${t}health: { hits: 10, status: dead }\n`);
    expect(await refused('roll', '--sheet', dead, '--skill', 'Warhammer', 'vs', '2d10')).toBe(
      `personae: ${dead} (health.status): Brogan Ironhand is dead and issues or answers no challenge (personae-core-2011.txt "Injury and Death")`,
    );
    expect(await refused('roll', '--sheet', DWARF, 'vs', '2d10')).toContain('name the skill Brogan Ironhand rolls, e.g. --skill Warhammer');
    expect(await refused('roll', '--sheet', DWARF, '--skill', 'Warhammer', '3d10', 'vs', '2d10')).toContain('the actor is either a character sheet or dice');
    expect(await refused('roll', '2d10', '--skill', 'Dodge', 'vs', '2d10')).toContain('--skill describes a character sheet: give --sheet FILE on the same side of "vs" (the actor)');
    expect(await refused('roll', '--sheet', DWARF, '--sheet', MERCHANT, '--skill', 'Dodge', 'vs', '2d10')).toContain('--sheet is given 2 times before "vs" (the actor)');
    expect(await refused('roll', '--sheet', DWARF, '--skill', 'Warhammer')).toContain('nothing to roll against');
    expect(await refused('roll', '--sheet', DWARF, '--skill', 'Warhammer', '--kind', 'attack', 'vs', '--kind', 'power', '2d10')).toContain('a challenge has one kind');
    expect(await refused('roll', '--sheet', DWARF, '--skill', 'Warhammer', '--modifier', 'lots', 'vs', '2d10')).toContain('--modifier "lots": expected a whole number');
    expect(await refused('roll', '--sheet', DWARF, '--skill', 'Warhammer', '--expertise', 'Brewing', 'vs', '2d10')).toContain('has no Expertise talent "Brewing"; it has Mining');
    expect(await refused('roll', '2d10', 'vs', '2d10', '--kind', 'attack')).toContain('--kind chooses which abilities and armor apply');
    expect(await refused('roll', '3d10', '--unopposed', '2', '--kind', 'attack')).toContain('--kind chooses which abilities and armor apply');
    expect(await refused('roll', '--sheet', DWARF, '--skill', 'Warhammer', '--unopposed', '2', 'vs', '2d10')).toContain('--unopposed rolls the player\'s side against a difficulty: drop "vs 2d10"');
  });

  it('--expertise adds the talent\'s die', async () => {
    const j = await cliJson('roll', '--sheet', DWARF, '--skill', 'Stonecraft', '--expertise', 'mining', 'vs', '2d10', '--seed', '3', '--json');
    expect((j.actor as Side).pool).toBe(5);
    expect((j.actor as Side).sheet?.expertise).toBe('Mining');
  });
});
