import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import { sheet } from '../helpers/sheets';
import { entryLines, personaeTable, type TableCommandInput, type TableState, type Viewer } from '../../src/index';

// An obstacle or hazard at the table is hidden from players like a hidden GM character
// (personae-core-2011.txt "Obstacles").

const gm: Viewer = { role: 'gm', participantId: 'p-gm' };
const ann: Viewer = { role: 'player', participantId: 'p-ann' };

function table() {
  let state: TableState = personaeTable.initialState();
  const frames: string[] = [];
  const run = (viewer: Viewer, raw: TableCommandInput) => {
    const parsed = personaeTable.parseCommand(raw);
    if (!parsed.ok) throw new Error(parsed.error.message);
    for (const e of personaeTable.decide(state, parsed.command, { actor: viewer, dice: seededDice(3), now: '2026-11-25T20:00:00.000Z', settings: { physicalDice: false } })) {
      state = personaeTable.evolve(state, e);
      frames.push(JSON.stringify(personaeTable.redactEvent(e, ann, state)));
    }
    frames.push(JSON.stringify(personaeTable.viewState(state, ann)));
  };
  run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
  const dwarf = Object.keys(state.characters)[0]!;
  const obstacle = (id: string, name: string, hidden: boolean) => ({
    type: 'encounter' as const,
    command: { type: 'join' as const, actor: 'gm', character: { id, name, skills: [{ name: 'Grim Masonry', dice: 4, attribute: 'stature' as const }], obstacle: { hidden } } },
  });
  run(gm, obstacle('wall', 'Crumbling wall', false));
  run(gm, obstacle('pit', 'Hidden pit', true));
  return { run, frames, dwarf, state: () => state };
}

describe('obstacles at the table (personae-core-2011.txt "Obstacles")', () => {
  it("a player sees an open obstacle in play, and of a hidden one only its name and condition", () => {
    const t = table();
    const view = personaeTable.viewState(t.state(), ann);
    const wall = view.characters.find((c) => c.id === 'wall')!;
    const pit = view.characters.find((c) => c.id === 'pit')!;
    expect(wall).toMatchObject({ name: 'Crumbling wall', hidden: false, sheet: null });
    expect(wall.play?.def?.skills[0]?.name).toBe('Grim Masonry');
    expect(pit).toMatchObject({ name: 'Hidden pit', hidden: true, sheet: null });
    expect(pit.play?.def).toBeUndefined();
    expect(view.scene!.roster).toEqual(expect.arrayContaining(['wall', 'pit']));
    // The GM sees both whole.
    const gmView = personaeTable.viewState(t.state(), gm);
    expect(gmView.characters.find((c) => c.id === 'pit')!.play?.def?.skills[0]?.name).toBe('Grim Masonry');
  });

  it("a challenge against the hidden obstacle never sends the player its pool", () => {
    const t = table();
    t.run(ann, { type: 'encounter', command: { type: 'interact', actor: t.dwarf, target: 'pit', skill: 'Resist' } });
    t.run(ann, { type: 'encounter', command: { type: 'interact', actor: t.dwarf, target: 'wall', skill: 'Resist' } });
    const wire = t.frames.join('\n');
    // The open wall's pool is public; the hidden pit's (the same skill name) appears only through the wall.
    expect(wire).toContain('Crumbling wall, an obstacle');
    expect(wire).not.toContain('Hidden pit, an obstacle');
    const log = personaeTable.viewState(t.state(), ann).log.map((e) => entryLines(e).join(' ')).join('\n');
    expect(log).toMatch(/against Hidden pit \(withheld\)/);
  });
});
