import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, cliJson } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'personae-lab-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FIELDS = ['success', 'clearSuccess', 'glancingSuccess', 'failure', 'fullTie', 'criticals', 'reactorCriticals', 'expectedCriticals', 'decided'] as const;

describe('personae odds --compare', () => {
  it('gives each rule set exactly what a separate query under it gives, and their differences', async () => {
    const compared = await cliJson('odds', '4d10+2', 'vs', '4d10+3', '--compare', 'core-2011,srd-v4', '--option', 'assist=web', '--assist', 'Ana', '--json');
    const entries = compared.compare as Record<string, unknown>[];
    expect(entries.map((e) => e.label)).toEqual(['core-2011 with assist=web', 'srd-v4 with assist=web']);
    for (const [i, rules] of ['core-2011', 'srd-v4'].entries()) {
      const single = await cliJson('odds', '4d10+2', 'vs', '4d10+3', '--rules', rules, '--option', 'assist=web', '--assist', 'Ana', '--json');
      for (const f of FIELDS) expect(entries[i]![f], `${rules} ${f}`).toEqual(single[f]);
    }
    const [d] = compared.differences as { success: number }[];
    expect(d!.success).toBeCloseTo((entries[1]!.success as number) - (entries[0]!.success as number), 10);
  });

  it('--compare-option compares the table with one option changed', async () => {
    const compared = await cliJson('odds', '3d10', 'vs', '3d10', '--compare-option', 'fullTie=actor', '--json');
    const [base, variant] = compared.compare as { success: number; fullTie: number }[];
    // personae-core-2011.txt "The Challenge" step 4: a full tie goes to the actor under this reading.
    expect(variant!.fullTie).toBe(0);
    expect(variant!.success).toBeCloseTo(base!.success + base!.fullTie, 10);
  });

  it('refuses a comparison of one rule set and unknown presets, naming the value', async () => {
    const one = await cli('odds', '3d10', 'vs', '3d10', '--compare', 'srd-v4');
    expect(one.code).not.toBe(0);
    expect(one.stderr).toMatch(/at least two rule sets/);
    const unknown = await cli('odds', '3d10', 'vs', '3d10', '--compare', 'core-2011,v5');
    expect(unknown.stderr).toMatch(/unknown rules preset "v5"/);
    const badOption = await cli('odds', '3d10', 'vs', '3d10', '--compare-option', 'fullTie=sometimes');
    expect(badOption.stderr).toMatch(/--compare-option/);
  });

  it('draws the rule sets on one chart', async () => {
    const file = join(dir, 'compare.svg');
    const r = await cli('odds', '3d10', 'vs', '3d10', '--compare', 'core-2011,srd-v4', '--plot', file);
    expect(r.code).toBe(0);
    const svg = readFileSync(file, 'utf8');
    expect(svg).toContain('core-2011');
    expect(svg).toContain('srd-v4');
  });
});

describe('distributions', () => {
  it('--json carries how the comparison was decided, expected criticals and the cumulative views', async () => {
    const j = await cliJson('odds', '4d10', 'vs', '4d10', '--json');
    const decided = j.decided as { actor: number[]; reactor: number[]; fullTie: number; actorExtraDice: number; reactorExtraDice: number };
    const actorWins = decided.actor.reduce((a, b) => a + b, 0) + decided.actorExtraDice;
    expect(actorWins).toBeCloseTo(j.success as number, 10);
    expect(decided.fullTie).toBeCloseTo(j.fullTie as number, 10);
    // core-2011 "The Challenge": a success on the highest dice is the clear share.
    expect(decided.actor[0]).toBeCloseTo(j.clearSuccess as number, 10);
    const crit = j.criticals as number[];
    const atLeast = j.criticalsAtLeast as number[];
    expect(atLeast[0]).toBeCloseTo(1, 10);
    expect(atLeast[1]).toBeCloseTo(1 - crit[0]!, 10);
    expect(j.expectedCriticals).toBeCloseTo(crit.reduce((s, p, k) => s + k * p, 0), 10);
  });

  it('--table prints the deciding pair and the criticals exactly, at least and at most', async () => {
    const r = await cli('odds', '4d10+2', 'vs', '4d10+2', '--table', '--max-dice', '4');
    expect(r.stdout).toMatch(/highest pair\s+38\.69%\s+38\.69%\s+77\.38%/);
    expect(r.stdout).toMatch(/criticals\s+exactly\s+at least\s+at most/);
  });
});

describe('--csv', () => {
  it('prints the figures as CSV, and the sweep with --table', async () => {
    const one = await cli('odds', '3d10', 'vs', '2d10', '--csv');
    const lines = one.stdout.trim().split('\n');
    expect(lines[0]).toBe('rules,success,clearSuccess,glancingSuccess,failure,fullTie,expectedCriticals,method');
    const json = await cliJson('odds', '3d10', 'vs', '2d10', '--json');
    expect(Number(lines[1]!.split(',')[1])).toBeCloseTo(json.success as number, 10);
    const sweep = await cli('odds', '3d10', 'vs', '2d10', '--table', '--csv', '--max-dice', '3');
    const rows = sweep.stdout.trim().split('\n').map((l) => l.split(','));
    expect(rows[0]).toEqual(['actor dice \\ reactor dice', '1', '2', '3']);
    expect(Number(rows[3]![2])).toBeCloseTo(json.success as number, 10);
  });

  it('refuses --csv with --json', async () => {
    const r = await cli('odds', '3d10', 'vs', '2d10', '--csv', '--json');
    expect(r.stderr).toMatch(/one of --json and --csv/);
  });
});
