import { describe, expect, it } from 'vitest';
import { challengeOdds, tableOptions, wilsonInterval } from '@personae/rules';
import { cli, cliJson } from './helpers';

const dwarf = 'examples/characters/dwarf-iron-constitution.yaml';
const sellsword = 'examples/characters/wounded-sellsword.yaml';

interface Attack {
  attacker: string;
  skill: string;
  defense: string;
  defenseSkill?: string;
  actor: { dice: number; modifier: number };
  reactor: { dice: number; modifier: number };
  success: number;
}
interface Matchup {
  rules: { preset: string; attacks: Attack[]; refused: { reason: string }[]; duels?: { played: number; undecided: number; wins: Record<string, { won: number; share: number; low: number; high: number }> } }[];
}

describe('personae matchup', () => {
  it('builds each attack as the encounter does and gives its exact odds', async () => {
    const j = (await cliJson('matchup', dwarf, sellsword, '--rules', 'core-2011', '--duels', '0', '--json')) as unknown as Matchup;
    const [core] = j.rules;
    const hammer = core!.attacks.find((a) => a.attacker === 'Brogan Ironhand' && a.defense === 'dodge')!;
    // Warhammer 6 dice + Stature 6; Tomas dodges with Dodge 3 dice, one fewer for being Injured
    // (personae-core-2011.txt "Injury and Death"), + Cunning 4.
    expect(hammer.actor).toEqual({ dice: 6, modifier: 6 });
    expect(hammer.reactor).toEqual({ dice: 2, modifier: 4 });
    // Tomas's Black Company Mail sets aside one of Brogan's dice after rerolls ("Armor"), and the odds count it.
    expect(hammer.success).toBeCloseTo(challengeOdds({ actor: { dice: 6, modifier: 6 }, reactor: { dice: 2, modifier: 4, ignoreOpponentDice: 1 } }, tableOptions('core-2011')).success, 10);
    expect(hammer.success).toBeLessThan(challengeOdds({ actor: { dice: 6, modifier: 6 }, reactor: { dice: 2, modifier: 4 } }, tableOptions('core-2011')).success);
    // Brogan's passive block: Block 4 dice + Stature 6 ("Passive vs. Active Defense").
    const sword = core!.attacks.find((a) => a.attacker === 'Tomas Reyne' && a.defense === 'block')!;
    expect(sword.reactor).toEqual({ dice: 4, modifier: 6 });
    // A light weapon cannot parry a heavy one ("Parrying"): the matchup says so instead of listing it.
    expect(core!.refused.some((r) => /like against like/.test(r.reason))).toBe(true);
  });

  it('plays a mirror match fairly: each copy wins about half, within the stated interval', async () => {
    const j = (await cliJson('matchup', sellsword, sellsword, '--rules', 'core-2011', '--duels', '400', '--seed', '5', '--json')) as unknown as Matchup;
    const duels = j.rules[0]!.duels!;
    const wins = Object.values(duels.wins);
    expect(wins.reduce((s, w) => s + w.won, 0) + duels.undecided).toBe(400);
    for (const w of wins) {
      expect(w.low).toBeLessThanOrEqual(w.share);
      expect(w.high).toBeGreaterThanOrEqual(w.share);
      expect(w.share).toBeGreaterThan(0.3);
      expect(w.share).toBeLessThan(0.7);
    }
  }, 120_000);

  it('prints a table per preset and names a bad preset', async () => {
    const r = await cli('matchup', dwarf, sellsword, '--duels', '20');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Rules core-2011: exact odds of each attack/);
    expect(r.stdout).toMatch(/Rules srd-v4: 20 duels/);
    const bad = await cli('matchup', dwarf, sellsword, '--rules', 'core-2011,v7');
    expect(bad.stderr).toMatch(/unknown rules preset "v7"/);
    const missing = await cli('matchup', dwarf, 'nope.yaml');
    expect(missing.stderr).toMatch(/nope\.yaml.*no such file/);
  }, 120_000);

  it('the Wilson interval of a proportion', () => {
    const ci = wilsonInterval(50, 100);
    expect(ci.low).toBeCloseTo(0.4038, 4);
    expect(ci.high).toBeCloseTo(0.5962, 4);
    expect(wilsonInterval(0, 10).low).toBe(0);
  });
});
