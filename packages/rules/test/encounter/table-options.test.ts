import { describe, expect, it } from 'vitest';
import { describeEvent, describeSnapshot, replay } from '../../src/index';
import { ALDRIC, CULTIST, Table } from './helpers';

describe('option distance (personae-core-2011.txt "Distance and Location")', () => {
  it('relative: a move ends at a relative term, kept on the character and shown; coordinates are refused naming the option', () => {
    const t = new Table();
    t.toViolence();
    const [moved] = t.run({ type: 'move', actor: 'aldric', description: 'round the altar', to: 'very near' });
    expect(moved).toMatchObject({ type: 'moved', to: 'very near' });
    expect(t.character('aldric').position).toBe('very near');
    expect(describeEvent(moved!, null)).toEqual(['aldric moves (round the altar) to very near.']);
    expect(describeSnapshot(t.now).join('\n')).toMatch(/Aldric: .*position very near/);
    const e = t.refuse({ type: 'move', actor: 'aldric', to: { x: 2, y: 3 } }, 'distance-form', /"Distance and Location"/);
    expect(e.message).toMatch(/option distance = relative/);
    expect(e.field).toBe('to');
    // A free word the group uses is a relative term too; a move without a destination keeps the last one.
    t.run({ type: 'move', actor: 'aldric', to: 'flanking' });
    expect(t.character('aldric').position).toBe('flanking');
  });

  it('grid: a move ends on a square; a word is refused naming the option', () => {
    const t = new Table([ALDRIC, CULTIST], { distance: 'grid' });
    t.run({ type: 'move', actor: 'aldric', to: { x: 4, y: -1 } });
    expect(t.character('aldric').position).toEqual({ x: 4, y: -1 });
    expect(describeSnapshot(t.now).join('\n')).toMatch(/Aldric: .*position \(4, -1\)/);
    expect(t.log.at(-1)).toMatchObject({ type: 'moved', to: { x: 4, y: -1 } });
    const e = t.refuse({ type: 'move', actor: 'aldric', to: 'close' }, 'distance-form', /"Distance and Location"/);
    expect(e.message).toMatch(/option distance = grid/);
    expect(replay(t.log).now).toEqual(t.now);
  });

  it('positions of the old form are cleared when the table changes how it tracks distance', () => {
    const t = new Table();
    t.run({ type: 'move', actor: 'aldric', to: 'pretty far' });
    t.run({ type: 'configure', actor: 'gm', options: { preset: 'core-2011', options: { distance: 'grid' } } });
    expect(t.character('aldric').position).toBeNull();
    t.run({ type: 'move', actor: 'aldric', to: { x: 0, y: 0 } });
    t.run({ type: 'configure', actor: 'gm', options: { preset: 'core-2011', options: { distance: 'grid', fullTie: 'reactor' } } });
    expect(t.character('aldric').position).toEqual({ x: 0, y: 0 });
  });
});

describe('option developmentCountsOnlyClear (personae-v4-srd-playing.txt "Clear Success, Glancing Success, and Steering")', () => {
  // Aldric persuades (2 dice + Competence 3) against the cultist's Resist (2 dice + Power 2).
  const clear = { actor: [8, 1], reactor: [2, 1] };
  const glancing = { actor: [6, 5], reactor: [7, 1] }; // 9 against 9, then 8 against 3: won on the tie-break
  const failure = { actor: [1, 1], reactor: [9, 1] };
  function play(onlyClear: boolean): Table {
    const t = new Table([ALDRIC, CULTIST], { developmentCountsOnlyClear: onlyClear }, 'srd-v4');
    for (const dice of [clear, glancing, failure]) t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', dice });
    return t;
  }

  it('true: only clear successes count; glancing ones are listed as not counted', () => {
    const t = play(true);
    expect(t.events('challenge-resolved').map((e) => [e.result.outcome, e.result.grade])).toEqual([['success', 'clear'], ['success', 'glancing'], ['failure', null]]);
    expect(t.character('aldric').tally).toEqual({ session: 1, successes: 1, failures: 1, uncounted: 1 });
    expect(t.character('cultist').tally).toEqual({ session: 1, successes: 0, failures: 0, uncounted: 0 });
    expect(describeSnapshot(t.now).join('\n')).toMatch(/this session 1 success\(es\), 1 failure\(s\), 1 glancing success\(es\) not counted/);
  });

  it('false: glancing successes count as successes', () => {
    expect(play(false).character('aldric').tally).toEqual({ session: 1, successes: 2, failures: 1, uncounted: 0 });
  });

  it('a new session starts a fresh tally and keeps the last one; undo takes a count back', () => {
    const t = play(true);
    t.run({ type: 'begin-session', actor: 'gm' });
    expect(t.character('aldric').tally).toEqual({ session: 2, successes: 0, failures: 0, uncounted: 0 });
    expect(t.character('aldric').lastSessionTally).toEqual({ session: 1, successes: 1, failures: 1, uncounted: 1 });
    t.run({ type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade', dice: clear });
    expect(t.character('aldric').tally.successes).toBe(1);
    t.run({ type: 'undo', actor: 'gm' });
    expect(t.character('aldric').tally.successes).toBe(0);
    expect(replay(t.log).now).toEqual(t.now);
  });
});
