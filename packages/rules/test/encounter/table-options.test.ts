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
