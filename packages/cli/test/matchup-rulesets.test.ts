import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { modifier } from '@personae/core';
import { attackOdds as d100AttackOdds, d100Pair, fighterFromSheet, questionOdds, resolveOptions as d100Options, sheetSchema, simulateD100Duels } from '@personae/d100';
import { attackOdds as lucidityAttackOdds, resolveOptions as lucidityOptions } from '@personae/lucidity';
import { cli, cliJson } from './helpers';

const makoto = 'examples/d100/evoker-makoto.yaml';
const pixie = 'examples/d100/shadow-pixie.yaml';
const ana = 'examples/lucidity/characters/ana-vell.yaml';
const orrin = 'examples/lucidity/characters/orrin-moss.yaml';
const sheet = (file: string): unknown => parse(readFileSync(file, 'utf8'));

interface D100Row {
  attacker: string;
  weapon: string;
  defence: 'evasion' | 'defend' | 'none';
  kind: 'melee' | 'ballistic' | 'magic';
  element: string;
  attackTarget: number;
  evasionTarget: number | null;
  damage: number;
  advantages: number;
  disadvantages: number;
  hit: number;
  out: number;
  stagger: number;
  wounds: Record<string, number>;
}
interface LucidityRow {
  attacker: string;
  weapon: string;
  roll: 'd20' | 'lucidity';
  modifier: number;
  defense: number;
  damage: string;
  protection: number;
  hit: number;
  expectedDamage: number;
  damageTaken: { damage: number; chance: number }[];
}
interface Duels {
  played: number;
  undecided: number;
  wins: Record<string, { won: number; share: number; low: number; high: number }>;
}
interface Matchup<R> {
  ruleset: string;
  rules: { preset: string; attacks: R[]; refused: { reason: string }[]; duels?: Duels }[];
}

/**
 * A mirror match's tally: every duel counted once, each share inside its own interval, and 50% inside
 * each copy's interval, as it should be for a fair game (a 95% interval misses about 1 run in 20; the
 * seeds are fixed).
 */
function expectFair(duels: Duels, played: number): void {
  const wins = Object.values(duels.wins);
  expect(wins.reduce((s, w) => s + w.won, 0) + duels.undecided).toBe(played);
  for (const w of wins) {
    expect(w.low).toBeLessThanOrEqual(w.share);
    expect(w.high).toBeGreaterThanOrEqual(w.share);
    expect(w.low).toBeLessThan(0.5);
    expect(w.high).toBeGreaterThan(0.5);
  }
}

describe('personae matchup with d100 sheets', () => {
  it('gives each attack the exact odds of a separate query on the same targets, damage and defender', async () => {
    const j = (await cliJson('matchup', makoto, pixie, '--duels', '0', '--json')) as unknown as Matchup<D100Row>;
    expect(j.ruleset).toBe('d100');
    // Every preset of the ruleset by default (docs/d100/options.md).
    expect(j.rules.map((r) => r.preset)).toEqual(['seed', 'ffg-margin', 'ffg-tens-plus-one']);
    const sheets = { Makoto: sheetSchema.parse(sheet(makoto)), Pixie: sheetSchema.parse(sheet(pixie)) };
    for (const r of j.rules) {
      const options = d100Options(r.preset);
      // Two weapons of Makoto's and one of Pixie's, each against Evasion, Evasion while Defending, and no defence.
      expect(r.attacks).toHaveLength(9);
      for (const row of r.attacks) {
        const defenderName = row.attacker === 'Makoto' ? 'Pixie' : 'Makoto';
        const attacker = fighterFromSheet('a', sheets[row.attacker as 'Makoto']);
        const base = fighterFromSheet('d', sheets[defenderName]);
        // The Defend action: an Advantage on the evasion and no extra wounds ("Defending and Protecting").
        const defender = row.defence === 'defend' ? { ...base, conditions: { ...base.conditions, defending: true } } : base;
        const separate = d100AttackOdds(attacker, defender, { kind: row.kind, element: row.element as 'melee', damage: row.damage, attackTarget: row.attackTarget, evasionTarget: row.evasionTarget, advantages: [], disadvantages: [] }, options);
        expect(row.hit, `${r.preset} ${row.attacker} ${row.weapon} ${row.defence}`).toBeCloseTo(separate.hit, 10);
        expect(row.out).toBeCloseTo(separate.out, 10);
        expect(row.stagger).toBeCloseTo(separate.stagger, 10);
        for (const [n, p] of Object.entries(separate.wounds)) expect(row.wounds[n] ?? 0).toBeCloseTo(p, 10);
      }
    }
    // Worked by hand from the sheets under the seed's rules: the Naginata is Melee 45 against Pixie's
    // Agility 45 (no evasion skill), damage 5 plus Makoto's Strength Bonus 3 against Toughness 30 and no
    // armour ("How Attacks Work", "Damage"): 45 rolls of 100 hit before the evasion, which is the query
    // `personae d100 odds --attack 45 --evasion 45 --damage 8 --toughness 30 --element melee` asks.
    const seed = j.rules[0]!;
    const naginata = seed.attacks.find((a) => a.weapon === 'Naginata' && a.defence === 'evasion')!;
    expect([naginata.attackTarget, naginata.evasionTarget, naginata.damage]).toEqual([45, 45, 5]);
    const asked = questionOdds({ attack: 45, evasion: 45, damage: 8, toughness: 30, armour: 0, element: 'melee', affinity: 'normal', advantages: 0, disadvantages: 0 }, d100Options('seed'));
    expect(naginata.hit).toBeCloseTo(asked.hit, 12);
    expect(naginata.out).toBeCloseTo(asked.out, 12);
    // Undefended, the evasion plays no part: every roll of 45 or under hits.
    expect(seed.attacks.find((a) => a.weapon === 'Naginata' && a.defence === 'none')!.hit).toBeCloseTo(0.45, 12);
    // Agi is fire, to which Pixie is weak: no Strength Bonus on magic, the weakness from the sheet.
    const agi = seed.attacks.find((a) => a.weapon === 'Agi' && a.defence === 'evasion')!;
    const agiAsked = questionOdds({ attack: 40, evasion: 45, damage: 4, toughness: 30, armour: 0, element: 'fire', affinity: 'weak', advantages: 0, disadvantages: 0 }, d100Options('seed'));
    expect(agi.hit).toBeCloseTo(agiAsked.hit, 12);
    expect(agi.out).toBeCloseTo(agiAsked.out, 12);
    // Makoto's Persona resists electricity: Pixie's Zio never takes Makoto out.
    expect(seed.attacks.filter((a) => a.weapon === 'Zio').every((a) => a.out === 0)).toBe(true);
  });

  it('plays a mirror match fairly, reproducibly from its seed', async () => {
    const args = ['matchup', makoto, makoto, '--rules', 'seed', '--duels', '150', '--seed', '3', '--json'];
    const j = (await cliJson(...args)) as unknown as Matchup<D100Row>;
    const duels = j.rules[0]!.duels!;
    expect(Object.keys(duels.wins)).toEqual(['Makoto', 'Makoto (2)']);
    expectFair(duels, 150);
    expect(await cliJson(...args)).toEqual(j);
  }, 180_000);

  it('ends a duel neither can win at the round limit', () => {
    // Pixie's Zio is electricity, which Pixie absorbs: no attack can take either copy out.
    const pair = d100Pair(sheet(pixie), sheet(pixie));
    const t = simulateD100Duels(pair, 'seed', {}, { duels: 3, seed: 1, maxRounds: 4 });
    expect(t.undecided).toBe(3);
    expect(t.rounds.max).toBe(5);
  });
});

describe('personae matchup with Lucidity sheets', () => {
  it('gives each attack the exact odds of a separate attackOdds query on the same modifier, Defense, damage and Protection', async () => {
    const j = (await cliJson('matchup', ana, orrin, '--duels', '0', '--json')) as unknown as Matchup<LucidityRow>;
    expect(j.ruleset).toBe('lucidity');
    expect(j.rules.map((r) => r.preset)).toEqual(['standard', 'as-written']);
    for (const r of j.rules) {
      const opts = lucidityOptions(r.preset);
      // Orrin's Longbow: DEX 3 + Bows 4 against Ana's Defense 12, 1d8 plus DEX 3 for Breakthrough
      // ("Creating Traits") against her chain shirt 3 and shield 1 ("How Combat Works").
      const bow = r.attacks.find((a) => a.weapon === 'Longbow' && a.roll === 'd20')!;
      expect([bow.modifier, bow.defense, bow.damage, bow.protection]).toEqual([7, 12, '1d8', 4]);
      const separate = lucidityAttackOdds({ modifier: 7, defense: 12, damage: '1d8', protection: 4, damageModifiers: [modifier('damage', 'Breakthrough', 3)] }, opts);
      expect(bow.hit).toBeCloseTo(separate.hit, 12);
      expect(bow.expectedDamage).toBeCloseTo(separate.expectedDamage, 12);
      expect(bow.damageTaken).toEqual(separate.damageTaken.map((d) => ({ damage: d.damage, chance: expect.closeTo(d.chance, 12) as number })));
      // A d20 + 7 beats Defense 12 on 6 or more: 15 faces in 20.
      expect(bow.hit).toBeCloseTo(0.75, 12);
      // Ana's Longsword: STR 2 + Swords 3 against Orrin's Defense 14, Impaler adding STR to Penetration.
      const sword = r.attacks.find((a) => a.weapon === 'Longsword' && a.roll === 'd20')!;
      expect([sword.modifier, sword.defense, sword.protection]).toEqual([5, 14, 1]);
      const swordAsked = lucidityAttackOdds({ modifier: 5, defense: 14, damage: '1d8', protection: 1, penetrationModifiers: [modifier('penetration', 'Impaler', 2)] }, opts);
      expect(sword.hit).toBeCloseTo(swordAsked.hit, 12);
      expect(sword.expectedDamage).toBeCloseTo(swordAsked.expectedDamage, 12);
      // A Lucidity roll in place of the d20 is listed with its target.
      expect(r.attacks.some((a) => a.roll === 'lucidity')).toBe(true);
    }
  });

  it('plays a mirror match fairly, reproducibly from its seed', async () => {
    const args = ['matchup', orrin, orrin, '--rules', 'standard', '--duels', '400', '--seed', '2', '--json'];
    const j = (await cliJson(...args)) as unknown as Matchup<LucidityRow>;
    const duels = j.rules[0]!.duels!;
    expectFair(duels, 400);
    expect(await cliJson(...args)).toEqual(j);
    const other = (await cliJson('matchup', orrin, orrin, '--rules', 'standard', '--duels', '400', '--seed', '9', '--json')) as unknown as Matchup<LucidityRow>;
    expect(other.rules[0]!.duels).not.toEqual(duels);
  }, 180_000);
});

describe('personae matchup: which ruleset', () => {
  it('refuses sheets of two rulesets, naming both files and rulesets', async () => {
    const r = await cli('matchup', makoto, ana, '--duels', '0');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/evoker-makoto\.yaml is a d100 sheet and .*ana-vell\.yaml a lucidity sheet/);
    const p = await cli('matchup', 'examples/characters/wounded-sellsword.yaml', pixie, '--duels', '0');
    expect(p.stderr).toMatch(/wounded-sellsword\.yaml is a personae sheet and .*shadow-pixie\.yaml a d100 sheet/);
    // A file that is not YAML at all, beside a d100 sheet, is refused as such, not taken for a Personae sheet.
    const dir = mkdtempSync(join(tmpdir(), 'matchup-'));
    writeFileSync(join(dir, 'broken.yaml'), 'name: [unclosed\n  x: 1\n');
    const broken = await cli('matchup', join(dir, 'broken.yaml'), pixie, '--duels', '0');
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toMatch(/broken\.yaml: not YAML or JSON: .*line 1/);
    // Beside a Personae sheet, the Personae reader reports it with its line, as it always has.
    const personae = await cli('matchup', 'examples/characters/wounded-sellsword.yaml', join(dir, 'broken.yaml'), '--duels', '0');
    expect(personae.stderr).toMatch(/broken\.yaml \(line 1\): YAML syntax error/);
  });

  it("names a preset the sheets' ruleset does not have", async () => {
    const r = await cli('matchup', makoto, pixie, '--rules', 'seed,core-2011');
    expect(r.stderr).toMatch(/--rules: unknown rules preset "core-2011"; known presets: seed, ffg-margin, ffg-tens-plus-one/);
    const l = await cli('matchup', ana, orrin, '--rules', 'seed');
    expect(l.stderr).toMatch(/--rules: unknown rules preset "seed"; known presets: standard, as-written/);
  });

  it('names the file and field of a sheet the ruleset refuses', async () => {
    const bad = 'examples/d100/invalid';
    for (const file of readdirSync(bad).filter((f) => f.endsWith('.yaml'))) {
      const r = await cli('matchup', makoto, `${bad}/${file}`, '--duels', '0');
      expect(r.code, file).not.toBe(0);
      // The file, the field and what is wrong with it, from the ruleset's own sheet check.
      expect(r.stderr).toMatch(new RegExp(`${bad}/${file.replace('.', '\\.')}: [a-z]+(\\.\\w+)*: .+`));
    }
    const l = await cli('matchup', 'examples/lucidity/illegal/level-without-xp.yaml', orrin, '--duels', '0');
    expect(l.code).not.toBe(0);
    expect(l.stderr).toMatch(/examples\/lucidity\/illegal\/level-without-xp\.yaml: attributes\.STR: /);
  });

  it('prints a table of attacks and the duels for each ruleset', async () => {
    const d = await cli('matchup', makoto, pixie, '--rules', 'seed', '--duels', '20');
    expect(d.stdout).toMatch(/Makoto against Pixie \(d100\)/);
    expect(d.stdout).toMatch(/Makoto\s+Naginata \(melee\)\s+Evasion\s+45 vs 45\s+5\s+32\.8%/);
    expect(d.stdout).toMatch(/Rules seed: 20 duels/);
    const l = await cli('matchup', ana, orrin, '--rules', 'standard', '--duels', '20');
    expect(l.stdout).toMatch(/Orrin Moss\s+Longbow\s+d20\+7\s+Defense 12\s+1d8 vs Protection 4\s+75\.0%/);
    expect(l.stdout).toMatch(/Rules standard: 20 duels/);
  }, 120_000);
});
