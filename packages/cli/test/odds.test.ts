import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, cliJson } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'personae-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every roll of n d10s, each as rolled. */
function* rolls(n: number): Generator<number[]> {
  if (n === 0) {
    yield [];
    return;
  }
  for (const rest of rolls(n - 1)) for (let d = 1; d <= 10; d++) yield [...rest, d];
}

const desc = (dice: number[]) => [...dice].sort((a, b) => b - a);

/**
 * The opposed challenge counted out by hand over every roll (personae-core-2011.txt "The Challenge":
 * highest dice plus modifiers, ties to the next pair, then the side with dice left; equal pools that
 * tie throughout are a full tie).
 */
function bruteForce(n: number, mA: number, m: number, mR: number) {
  let success = 0;
  let clear = 0;
  let failure = 0;
  let tie = 0;
  let total = 0;
  for (const a of rolls(n)) {
    const sa = desc(a);
    for (const r of rolls(m)) {
      const sr = desc(r);
      total++;
      let decided = 0;
      for (let i = 0; i < Math.min(n, m) && decided === 0; i++) {
        const d = sa[i]! + mA - (sr[i]! + mR);
        if (d !== 0) decided = d > 0 ? i + 1 : -(i + 1);
      }
      if (decided === 0 && n !== m) decided = n > m ? 99 : -99;
      if (decided > 0) {
        success++;
        if (decided === 1) clear++;
      } else if (decided < 0) failure++;
      else tie++;
    }
  }
  return { success: success / total, clear: clear / total, failure: failure / total, tie: tie / total };
}

type Odds = {
  success: number;
  clearSuccess: number;
  glancingSuccess: number;
  failure: number;
  fullTie: number;
  criticals: number[];
  reactorCriticals: number[];
  method: string;
  table?: { rows: string; columns: string; rowValues: number[]; columnValues: number[]; success: number[][] };
  plot?: string;
};

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

describe('personae odds', () => {
  it('--json: one object with the documented keys, each a probability', async () => {
    const j = (await cliJson('odds', '3d10+4', 'vs', '2d10+5', '--json')) as unknown as Odds & Record<string, unknown>;
    expect(j).toMatchObject({ command: 'odds', kind: 'opposed', rules: 'core-2011', method: 'exact', actor: { dice: 3, modifier: 4 }, reactor: { dice: 2, modifier: 5 } });
    for (const key of ['success', 'clearSuccess', 'glancingSuccess', 'failure', 'fullTie'] as const) {
      expect(typeof j[key]).toBe('number');
      expect(j[key]).toBeGreaterThanOrEqual(0);
      expect(j[key]).toBeLessThanOrEqual(1);
    }
    expect(j.success + j.failure + j.fullTie).toBeCloseTo(1, 10);
    expect(j.clearSuccess + j.glancingSuccess).toBeCloseTo(j.success, 10);
    expect(Array.isArray(j.criticals)).toBe(true);
    expect(sum(j.criticals)).toBeCloseTo(1, 10);
    expect(sum(j.reactorCriticals)).toBeCloseTo(1, 10);
  });

  it('agrees with counting every roll by hand', async () => {
    for (const [a, r] of [
      ['3d10+4', '2d10+5'],
      ['2d10+3', '2d10+3'],
      ['1d10', '3d10+1'],
      ['2d10+2', '2d10'],
    ] as const) {
      const j = (await cliJson('odds', a, 'vs', r, '--json')) as unknown as Odds;
      const [n, mA] = a.split('d10').map((x) => Number(x || 0));
      const [m, mR] = r.split('d10').map((x) => Number(x || 0));
      const bf = bruteForce(n!, mA!, m!, mR!);
      expect(j.success, `${a} vs ${r}`).toBeCloseTo(bf.success, 10);
      expect(j.clearSuccess).toBeCloseTo(bf.clear, 10);
      expect(j.failure).toBeCloseTo(bf.failure, 10);
      expect(j.fullTie).toBeCloseTo(bf.tie, 10);
    }
  });

  it('reports a full tie on its own under core-2011, not folded into success or failure', async () => {
    const j = (await cliJson('odds', '2d10+3', 'vs', '2d10+3', '--json')) as unknown as Odds;
    expect(j.fullTie).toBeGreaterThan(0);
    expect(j.success).toBeCloseTo(j.failure, 12);
    const text = await cli('odds', '2d10+3', 'vs', '2d10+3');
    expect(text.stdout).toMatch(/Full tie\s+1\.90%/);
  });

  it('criticals under core-2011: the chance of banking 0, 1, 2 from three dice (every 10 beyond the first)', async () => {
    const j = (await cliJson('odds', '3d10', 'vs', '1d10', '--json')) as unknown as Odds;
    // No crit with at most one 10; one with exactly two; two with three.
    expect(j.criticals[0]).toBeCloseTo(0.9 ** 3 + 3 * 0.1 * 0.9 ** 2, 12);
    expect(j.criticals[1]).toBeCloseTo(3 * 0.1 ** 2 * 0.9, 12);
    expect(j.criticals[2]).toBeCloseTo(0.1 ** 3, 12);
  });

  it('prints the chances as text with the criticals of both sides', async () => {
    const r = await cli('odds', '3d10+4', 'vs', '2d10+5');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Odds: Actor 3d10+4 vs Reactor 2d10+5');
    expect(r.stdout).toContain('exact probabilities');
    for (const label of ['Success', 'on the highest dice', 'by tie-break or extra dice', 'Failure', 'Full tie', 'Criticals banked']) expect(r.stdout).toContain(label);
    expect(r.stdout).toMatch(/Actor\s+0: 97\.20%\s+1: 2\.70%\s+2: 0\.10%/);
    expect(r.stdout).toMatch(/Reactor\s+0: 99\.00%\s+1: 1\.00%/);
  });

  it('names the grades clear and glancing under srd-v4', async () => {
    const r = await cli('odds', '3d10+4', 'vs', '2d10+5', '--rules', 'srd-v4');
    expect(r.stdout).toMatch(/^\s+clear\s/m);
    expect(r.stdout).toMatch(/^\s+glancing\s/m);
  });

  it('--assist under core-2011 is +1 to the actor', async () => {
    const assisted = (await cliJson('odds', '2d10+3', 'vs', '2d10+5', '--assist', 'Ben', '--json')) as unknown as Odds;
    const plus = (await cliJson('odds', '2d10+4', 'vs', '2d10+5', '--json')) as unknown as Odds;
    expect(assisted.success).toBe(plus.success);
  });

  it('--steer moves every result up a grade (personae-v4-srd-playing.txt "Clear Success, Glancing Success, and Steering")', async () => {
    const plain = (await cliJson('odds', '2d10', 'vs', '2d10+2', '--rules', 'srd-v4', '--json')) as unknown as Odds;
    const steered = (await cliJson('odds', '2d10', 'vs', '2d10+2', '--rules', 'srd-v4', '--steer', '1', '--json')) as unknown as Odds;
    expect(steered.clearSuccess).toBeCloseTo(plain.success, 10);
    expect(steered.glancingSuccess).toBeCloseTo(plain.failure + plain.fullTie, 10);
    expect(steered.success).toBeCloseTo(1, 10);
  });

  it('--table: a matrix over pool sizes, the asked-about cell in brackets', async () => {
    const r = await cli('odds', '3d10+4', 'vs', '2d10+5', '--table');
    const j = (await cliJson('odds', '3d10+4', 'vs', '2d10+5', '--table', '--json')) as unknown as Odds;
    expect(j.table).toMatchObject({ rows: 'actor dice', columns: 'reactor dice', rowValues: [1, 2, 3, 4, 5], columnValues: [1, 2, 3, 4, 5] });
    expect(j.table!.success).toHaveLength(5);
    expect(j.table!.success[2]![1]).toBeCloseTo(j.success, 12);
    expect(r.stdout).toContain(`[${(j.success * 100).toFixed(1)}%]`);
    const row3 = r.stdout.split('\n').find((l) => /^\s+3\s/.test(l))!;
    expect(row3).toContain('[');
    // More dice never hurt: each row rises left to right... as the actor's pool grows.
    for (let c = 0; c < 5; c++) for (let i = 1; i < 5; i++) expect(j.table!.success[i]![c]).toBeGreaterThanOrEqual(j.table!.success[i - 1]![c]!);
  });

  it('--max-dice sets the largest pool of the table', async () => {
    const j = (await cliJson('odds', '2d10', 'vs', '2d10', '--table', '--max-dice', '3', '--json')) as unknown as Odds;
    expect(j.table!.rowValues).toEqual([1, 2, 3]);
    expect(j.table!.columnValues).toEqual([1, 2, 3]);
  });

  it('--plot writes a readable SVG chart', async () => {
    const file = join(dir, 'odds.svg');
    const r = await cli('odds', '3d10+4', 'vs', '2d10+5', '--plot', file);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Chart written to ${file}.`);
    const svg = readFileSync(file, 'utf8');
    const root = checkSvg(svg);
    expect(root.width).toBeGreaterThan(0);
    expect(svg).toContain('<title>Chance that the actor succeeds</title>');
    for (const text of ["Actor's pool (d10s)", 'Chance of success', "Reactor's pool", 'reactor 2d10+5', '0%', '100%']) expect(svg).toContain(`>${text.replace(/'/g, '&apos;')}<`);
    // One line per reactor pool, 1 to 5.
    expect(svg.match(/<polyline /g)).toHaveLength(5);
    // Every point lies inside the drawing.
    for (const m of svg.matchAll(/points="([^"]+)"/g)) {
      for (const pt of m[1]!.split(' ')) {
        const [x, y] = pt.split(',').map(Number);
        expect(x! >= 0 && x! <= root.width && y! >= 0 && y! <= root.height).toBe(true);
      }
    }
  });

  it('--plot with --json names the file in the JSON', async () => {
    const file = join(dir, 'odds2.svg');
    const j = (await cliJson('odds', '2d10', 'vs', '2d10', '--plot', file, '--json')) as unknown as Odds;
    expect(j.plot).toBe(file);
    checkSvg(readFileSync(file, 'utf8'));
  });
});

describe('personae odds --unopposed (personae-core-2011.txt "Unopposed Challenges")', () => {
  /** The literal reading: the player's highest die + modifier meets or beats the GM's highest of (dice - 1) + difficulty. */
  function bruteUnopposed(n: number, mod: number, difficulty: number): number {
    let hits = 0;
    let total = 0;
    for (const p of rolls(n)) for (const g of rolls(Math.max(1, n - 1))) {
      total++;
      if (Math.max(...p) + mod >= Math.max(...g) + difficulty) hits++;
    }
    return hits / total;
  }

  it('by number: success is the chance to meet or beat the target', async () => {
    const j = (await cliJson('odds', '3d10+3', '--unopposed', '5', '--json')) as unknown as Odds & Record<string, unknown>;
    expect(j).toMatchObject({ kind: 'unopposed', difficulty: { value: 5, label: 'Difficult' }, unopposed: 'highest-die' });
    expect(j).not.toHaveProperty('reactor');
    expect(j.success).toBeCloseTo(bruteUnopposed(3, 3, 5), 12);
    expect(j.success + j.failure + j.fullTie).toBeCloseTo(1, 12);
    expect(j.reactorCriticals).toEqual([1]);
  });

  it('by name, as text', async () => {
    const r = await cli('odds', '2d10+2', '--unopposed', 'normal');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Odds: Player 2d10+2 against difficulty Normal (+2)');
    expect(r.stdout).toContain(`Success (meets the target)`);
    const j = (await cliJson('odds', '2d10+2', '--unopposed', 'normal', '--json')) as unknown as Odds;
    expect(j.success).toBeCloseTo(bruteUnopposed(2, 2, 2), 12);
  });

  it('--table: the player\'s pool against every difficulty of the ladder', async () => {
    const j = (await cliJson('odds', '3d10+3', '--unopposed', '5', '--table', '--json')) as unknown as Odds;
    expect(j.table).toMatchObject({ rows: 'player dice', columns: 'difficulty', columnValues: [0, 1, 2, 3, 5, 7, 9, 10] });
    expect(j.table!.success[2]![4]).toBeCloseTo(j.success, 12);
    const odd = (await cliJson('odds', '3d10+3', '--unopposed', '4', '--table', '--json')) as unknown as Odds;
    expect(odd.table!.columnValues).toContain(4);
  });

  it('--plot draws one line per difficulty', async () => {
    const file = join(dir, 'unopposed.svg');
    const r = await cli('odds', '3d10+3', '--unopposed', 'difficult', '--plot', file);
    expect(r.code).toBe(0);
    const svg = readFileSync(file, 'utf8');
    checkSvg(svg);
    expect(svg.match(/<polyline /g)).toHaveLength(8);
    expect(svg).toContain('>Difficult +5<');
  });
});

/**
 * A minimal well-formedness check: an <svg> root in the SVG namespace with a size, every tag closed
 * in order, attribute values quoted, and no stray "<" or "&" in text.
 */
function checkSvg(svg: string): { width: number; height: number } {
  expect(svg.startsWith('<svg ')).toBe(true);
  expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  const open = /^<svg ([^>]*)>/.exec(svg)!;
  expect(open[1]).toContain('xmlns="http://www.w3.org/2000/svg"');
  const width = Number(/width="(\d+)"/.exec(open[1]!)![1]);
  const height = Number(/height="(\d+)"/.exec(open[1]!)![1]);
  const stack: string[] = [];
  const tag = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<|&(?!(?:amp|lt|gt|quot|apos);)/g;
  let last = 0;
  for (let m = tag.exec(svg); m; m = tag.exec(svg)) {
    expect(m[2], `stray "${m[0]}" at ${m.index}: ${svg.slice(m.index, m.index + 40)}`).toBeDefined();
    last = m.index;
    if (m[1] === '/') expect(stack.pop()).toBe(m[2]);
    else if (m[4] !== '/') stack.push(m[2]!);
  }
  expect(stack).toEqual([]);
  expect(last).toBeGreaterThan(0);
  return { width, height };
}
