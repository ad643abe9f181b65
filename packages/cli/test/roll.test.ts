import { describe, expect, it } from 'vitest';
import { cli, cliJson } from './helpers';

type Side = { name: string; expression: string; pool: number; dice: number[]; modifier: number; naturalTens: number; criticals: number; source: string };

function sortedDescending(dice: number[]): boolean {
  return dice.every((d, i) => i === 0 || dice[i - 1]! >= d);
}

describe('personae roll: given dice', () => {
  it('resolves the documents\' 3-dice vs 2-dice tie example: both pairs tie, the actor wins on the extra die (personae-core-2011.txt "The Challenge" step 4)', async () => {
    const r = await cli('roll', '[7,5,2]+3', 'vs', '[8,6]+2');
    expect(r.code).toBe(0);
    expect(r.exitCodeSet).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('SUCCESS: Actor succeeds (decided by extra dice).');
    expect(r.stdout).toContain('Pair #1: 7+3 = 10 against 8+2 = 10: tie.');
    expect(r.stdout).toContain('Pair #2: 5+3 = 8 against 6+2 = 8: tie.');
    expect(r.stdout).toMatch(/Reactor has no dice left and Actor does/);
    expect(r.stdout).toContain('Criticals: Actor 0, Reactor 0.');
  });

  it('draws both sorted pools with the deciding die marked', async () => {
    const { stdout } = await cli('roll', '[2,7,5]+3', 'vs', '[6,8]+2');
    const lines = stdout.split('\n');
    const actorRow = lines.find((l) => l.trimStart().startsWith('Actor +3'))!;
    const reactorRow = lines.find((l) => l.trimStart().startsWith('Reactor +2'))!;
    expect(actorRow).toMatch(/7 \(10\)\s+5 \(8\)\s+2$/);
    expect(reactorRow).toMatch(/8 \(10\)\s+6 \(8\)\s+-$/);
    const caret = lines.find((l) => l.includes('^'))!;
    // The caret sits under the third column, where the actor's extra die is.
    expect(caret.indexOf('^')).toBe(actorRow.lastIndexOf('2'));
    expect(caret).toContain('Actor still has dice to compare');
  });

  it('--json: one object with the documented keys and types', async () => {
    const j = await cliJson('roll', '[7,5,2]+3', 'vs', '[8,6]+2', '--json');
    expect(j).toMatchObject({ command: 'roll', kind: 'opposed', rules: 'core-2011', outcome: 'success', grade: 'glancing', decidedBy: 'extra-dice', winner: 'actor' });
    const actor = j.actor as Side;
    const reactor = j.reactor as Side;
    expect(actor).toMatchObject({ dice: [7, 5, 2], modifier: 3, criticals: 0, pool: 3, source: 'given', expression: '[7,5,2]+3' });
    expect(reactor).toMatchObject({ dice: [8, 6], modifier: 2, criticals: 0, pool: 2, source: 'given' });
    expect(j.rolled).toEqual({ actor: [7, 5, 2], reactor: [8, 6] });
    expect(Array.isArray(j.explanation)).toBe(true);
    expect((j.explanation as unknown[]).every((l) => typeof l === 'string')).toBe(true);
    expect(Array.isArray(j.rulings)).toBe(true);
    expect(j).not.toHaveProperty('seed');
    expect(j.steps).toHaveLength(2);
  });

  it('keeps the order dice were entered in `rolled` and sorts `dice` high to low', async () => {
    const j = await cliJson('roll', '[2,9,4]', 'vs', '[3,8]', '--json');
    expect(j.rolled).toEqual({ actor: [2, 9, 4], reactor: [3, 8] });
    expect((j.actor as Side).dice).toEqual([9, 4, 2]);
    expect((j.reactor as Side).dice).toEqual([8, 3]);
  });

  it('decidedBy is the 1-based deciding pair: 1 on the highest dice (clear), 2 after one tie (glancing)', async () => {
    const first = await cliJson('roll', '[9,3]+2', 'vs', '[8,7]+2', '--json');
    expect(first).toMatchObject({ outcome: 'success', grade: 'clear', decidedBy: 1 });
    const second = await cliJson('roll', '[6,2]+4', 'vs', '[9,4]+1', '--json');
    expect(second).toMatchObject({ outcome: 'success', grade: 'glancing', decidedBy: 2 });
    const lost = await cliJson('roll', '[3]+0', 'vs', '[9]+0', '--json');
    expect(lost).toMatchObject({ outcome: 'failure', grade: null, decidedBy: 1, winner: 'reactor' });
  });

  it('a full tie is reported as a tie under core-2011, and follows option fullTie', async () => {
    const tie = await cliJson('roll', '[5,3]+1', 'vs', '[5,3]+1', '--json');
    expect(tie).toMatchObject({ outcome: 'tie', grade: null, decidedBy: null, winner: null });
    const text = await cli('roll', '[5,3]+1', 'vs', '[5,3]+1');
    expect(text.stdout).toContain('FULL TIE');
    expect(text.stdout).toContain('no pair decides');
    const reactor = await cliJson('roll', '[5,3]+1', 'vs', '[5,3]+1', '--option', 'fullTie=reactor', '--json');
    expect(reactor).toMatchObject({ outcome: 'failure', options: { fullTie: 'reactor' } });
  });

  it('a full tie rerolled (fullTie=reroll) takes fresh seeded dice and keeps the earlier attempt', async () => {
    const j = await cliJson('roll', '[5]', 'vs', '[5]', '--option', 'fullTie=reroll', '--seed', '3', '--json');
    const previous = j.previousAttempts as { actor: number[]; reactor: number[]; outcome: string }[];
    expect(previous.length).toBeGreaterThanOrEqual(1);
    expect(previous[0]).toEqual({ actor: [5], reactor: [5], outcome: 'tie' });
    expect(j.outcome).not.toBe('tie');
  });

  it('criticals under core-2011: every natural 10 beyond the first, for both sides, win or lose (personae-core-2011.txt "Critical Success")', async () => {
    const j = await cliJson('roll', '[10,10,10]', 'vs', '[10,10]+5', '--json');
    expect(j.outcome).toBe('failure');
    expect((j.actor as Side).criticals).toBe(2);
    expect((j.reactor as Side).criticals).toBe(1);
    expect((j.actor as Side).naturalTens).toBe(3);
  });

  it('--actor-pt caps criticals where the rules cap them (srd-v4)', async () => {
    const uncapped = await cliJson('roll', '[10,10,10,4]+3', 'vs', '[5]', '--rules', 'srd-v4', '--json');
    expect((uncapped.actor as Side).criticals).toBe(3);
    const capped = await cliJson('roll', '[10,10,10,4]+3', 'vs', '[5]', '--rules', 'srd-v4', '--actor-pt', '2', '--json');
    expect((capped.actor as Side).criticals).toBe(2);
  });

  it('--reactor-pt caps the reactor under the web criticals rule', async () => {
    const j = await cliJson('roll', '[3]', 'vs', '[10,10,10]', '--option', 'criticals=web', '--reactor-pt', '1', '--json');
    expect((j.reactor as Side).criticals).toBe(1);
  });

  it('--assist adds +1 to the result under core-2011 (personae-core-2011.txt "Assisting in a Challenge")', async () => {
    const j = await cliJson('roll', '[6,4]', 'vs', '[7,3]', '--assist', 'Ben', '--json');
    expect((j.actor as Side).modifier).toBe(1);
    expect(j).toMatchObject({ outcome: 'success', decidedBy: 2, assistants: ['Ben'] });
    const two = await cliJson('roll', '[6,4]', 'vs', '[8,3]', '--assist', 'Ben', '--assist', 'Cy', '--json');
    expect((two.actor as Side).modifier).toBe(2);
  });

  it('--assist steers under srd-v4, and --steer moves a failure to a glancing success', async () => {
    const assisted = await cliJson('roll', '[5]', 'vs', '[7]', '--rules', 'srd-v4', '--assist', 'Ben', '--json');
    expect(assisted).toMatchObject({ outcome: 'success', grade: 'glancing' });
    const steered = await cliJson('roll', '[5]', 'vs', '[7]', '--rules', 'srd-v4', '--steer', '2', '--json');
    expect(steered).toMatchObject({ outcome: 'success', grade: 'clear', steer: 2 });
    expect((steered.rulings as { rule: string }[]).some((r) => r.rule === 'steering')).toBe(true);
  });

  it('says in the headline when a ruling turned the dice around', async () => {
    const { stdout } = await cli('roll', '[10,6]+2', 'vs', '[9,8]+3', '--rules', 'srd-v4');
    expect(stdout).toContain("the dice alone said failure, changed by: challenger's natural 10");
    expect(stdout).not.toContain('changed by: no critical');
  });

  it('keeps a pool on one line in the JSON', async () => {
    const { stdout } = await cli('roll', '[7,5,2]+3', 'vs', '[8,6]+2', '--json');
    expect(stdout).toContain('"dice": [7, 5, 2],');
    expect(stdout).toContain('"actor": { "die": 7, "total": 10 },');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('}');
  });

  it('names grades in the headline under srd-v4 only', async () => {
    expect((await cli('roll', '[9]', 'vs', '[2]', '--rules', 'srd-v4')).stdout).toContain('SUCCESS (clear success)');
    expect((await cli('roll', '[9]', 'vs', '[2]')).stdout).toContain('SUCCESS: Actor succeeds (decided on the highest dice).');
  });

  it('accepts the matchup in one quoted word, or with unquoted spaces', async () => {
    const one = await cliJson('roll', '[7,5,2]+3 vs [8,6]+2', '--json');
    expect(one.decidedBy).toBe('extra-dice');
    const spaced = await cliJson('roll', '[7,5,2]', '+', '3', 'vs', '[8,6]', '+', '2', '--json');
    expect(spaced.decidedBy).toBe('extra-dice');
    expect((spaced.actor as Side).modifier).toBe(3);
  });
});

describe('personae roll: rolled dice', () => {
  it('rolls the pools asked for, sorted high to low, every die a d10', async () => {
    const j = await cliJson('roll', '3d10+4', 'vs', '2d10+5', '--json');
    const actor = j.actor as Side;
    const reactor = j.reactor as Side;
    expect(j.dice).toBe('crypto');
    expect(actor.dice).toHaveLength(3);
    expect(reactor.dice).toHaveLength(2);
    for (const d of [...actor.dice, ...reactor.dice]) expect(d >= 1 && d <= 10 && Number.isInteger(d)).toBe(true);
    expect(sortedDescending(actor.dice) && sortedDescending(reactor.dice)).toBe(true);
    expect(['success', 'failure', 'tie']).toContain(j.outcome);
    expect(actor.source).toBe('crypto');
  });

  it('--seed makes the roll reproducible and is echoed in the JSON', async () => {
    const a = await cliJson('roll', '3d10+4', 'vs', '2d10+5', '--seed', '42', '--json');
    const b = await cliJson('roll', '3d10+4', 'vs', '2d10+5', '--seed', '42', '--json');
    expect(a).toEqual(b);
    expect(a.seed).toBe(42);
    expect(a.dice).toBe('seeded');
    const text1 = await cli('roll', '3d10+4', 'vs', '2d10+5', '--seed', '42');
    const text2 = await cli('roll', '3d10+4', 'vs', '2d10+5', '--seed', '42');
    expect(text1.stdout).toBe(text2.stdout);
    expect(text1.stdout).toContain('seeded dice (seed 42)');
    const others = await Promise.all([1, 2, 3, 4, 5].map((seed) => cliJson('roll', '6d10', 'vs', '6d10', '--seed', String(seed), '--json')));
    expect(new Set(others.map((o) => JSON.stringify(o.rolled))).size).toBeGreaterThan(1);
  });

  it('accepts a negative seed', async () => {
    const j = await cliJson('roll', '2d10', 'vs', '2d10', '--seed', '-5', '--json');
    expect(j.seed).toBe(-5);
  });

  it('mixes given and rolled dice', async () => {
    const j = await cliJson('roll', '[7,5,2]+3', 'vs', '2d10+2', '--seed', '1', '--json');
    expect((j.actor as Side).dice).toEqual([7, 5, 2]);
    expect((j.actor as Side).source).toBe('given');
    expect((j.reactor as Side).source).toBe('seeded');
    expect((j.reactor as Side).dice).toHaveLength(2);
  });

  it('a 0-dice pool is allowed when the table sets minimumPool=0, and loses to any die', async () => {
    const j = await cliJson('roll', '0d10+9', 'vs', '[1]', '--option', 'minimumPool=0', '--json');
    expect((j.actor as Side).dice).toEqual([]);
    expect(j).toMatchObject({ outcome: 'failure', decidedBy: 'extra-dice' });
  });
});

describe('personae roll --unopposed (personae-core-2011.txt "Unopposed Challenges")', () => {
  it('the document\'s example: skill 3 dice, Prowess +3, Normal; GM rolls 3 and 7; the player\'s 1, 5, 6 meets the target', async () => {
    const j = await cliJson('roll', '[1,5,6]+3', '--unopposed', 'normal', '--gm-dice', '3,7', '--json');
    expect(j).toMatchObject({ kind: 'unopposed', outcome: 'success', grade: 'clear', decidedBy: 1, difficulty: { value: 2, label: 'Normal' }, unopposed: 'highest-die' });
    expect((j.actor as Side).dice).toEqual([6, 5, 1]);
    expect((j.reactor as Side).dice).toEqual([7, 3]);
    expect((j.reactor as Side).name).toBe('GM');
    const text = await cli('roll', '[1,5,6]+3', '--unopposed', 'normal', '--gm-dice', '[3,7]');
    expect(text.stdout).toContain('SUCCESS: Player meets the target');
    expect(text.stdout).toContain('meets');
  });

  it('the GM rolls one die fewer than the skill, at least one, and adds the difficulty', async () => {
    const three = await cliJson('roll', '3d10+3', '--unopposed', 'normal', '--seed', '7', '--json');
    expect((three.reactor as Side).dice).toHaveLength(2);
    expect((three.reactor as Side).modifier).toBe(2);
    expect(['success', 'failure']).toContain(three.outcome);
    const one = await cliJson('roll', '1d10', '--unopposed', '5', '--seed', '7', '--json');
    expect((one.reactor as Side).dice).toHaveLength(1);
    expect(one.difficulty).toEqual({ value: 5, label: 'Difficult' });
  });

  it('takes the difficulty by name or number', async () => {
    expect((await cliJson('roll', '2d10', '--unopposed', 'very difficult', '--seed', '1', '--json')).difficulty).toEqual({ value: 7, label: 'Very Difficult' });
    expect((await cliJson('roll', '2d10', '--unopposed', '12', '--seed', '1', '--json')).difficulty).toMatchObject({ value: 12 });
  });

  it('meeting the target succeeds; falling short fails', async () => {
    expect((await cliJson('roll', '[6]', '--unopposed', '1', '--gm-dice', '5', '--json')).outcome).toBe('success');
    expect((await cliJson('roll', '[6]', '--unopposed', '2', '--gm-dice', '5', '--json')).outcome).toBe('failure');
  });

  it('is reproducible with --seed', async () => {
    const a = await cli('roll', '4d10+2', '--unopposed', 'difficult', '--seed', '99');
    const b = await cli('roll', '4d10+2', '--unopposed', 'difficult', '--seed', '99');
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toContain('Unopposed challenge: Player 4d10+2 against difficulty Difficult (+5)');
  });
});
