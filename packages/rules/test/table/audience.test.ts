import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import { Recorded } from '../helpers/recorded';
import { sheet } from '../helpers/sheets';
import { personaeTable, type TableState, type Viewer } from '../../src/index';

const gm: Viewer = { role: 'gm', participantId: 'p-gm' };
const ann: Viewer = { role: 'player', participantId: 'p-ann' };
const bo: Viewer = { role: 'player', participantId: 'p-bo' };
const cy: Viewer = { role: 'player', participantId: 'p-cy' };
const watcher: Viewer = { role: 'observer', participantId: 'observer' };
const other: Viewer = { role: 'observer', participantId: 'observer-2' };
const SEATS = [gm, ann, bo, cy, watcher, other];

const audience = (state: TableState, v: Viewer) => personaeTable.audience(state, v);
const view = (state: TableState, v: Viewer) => JSON.parse(JSON.stringify(personaeTable.viewState(state, v))) as unknown;

/** Every two seats the table puts in one audience are shown equal views of `state`. */
function expectSharedViewsEqual(state: TableState): void {
  for (const a of SEATS) for (const b of SEATS) if (audience(state, a) === audience(state, b)) expect(view(state, a), `${a.participantId} and ${b.participantId}`).toEqual(view(state, b));
}

describe('audiences of the Personae table (viewers shown the same view)', () => {
  it('splits players by hidden characters they own, whispers they took part in, and undo; observers share one', () => {
    const t = new Recorded(SEATS, seededDice(5), { settings: { physicalDice: false } });
    t.run(ann, { type: 'roll', actor: { name: 'Roller', dice: 3 }, reactor: { name: 'Opposition', dice: 2 } });
    // Nobody owns a hidden character and nobody whispered: the players are one audience, the observers another.
    expect(audience(t.state, ann)).toBe(audience(t.state, bo));
    expect(audience(t.state, bo)).toBe(audience(t.state, cy));
    expect(audience(t.state, watcher)).toBe(audience(t.state, other));
    expect(audience(t.state, gm)).not.toBe(audience(t.state, ann));
    expect(audience(t.state, watcher)).not.toBe(audience(t.state, ann));
    expectSharedViewsEqual(t.state);

    // A hidden character owned by Ann: she sees its sheet, the others do not.
    t.run(gm, { type: 'add-character', sheet: sheet('merchant-privateer-scoundrel.yaml'), hidden: true, owner: 'p-ann' });
    expect(audience(t.state, ann)).not.toBe(audience(t.state, bo));
    expect(audience(t.state, bo)).toBe(audience(t.state, cy));
    expectSharedViewsEqual(t.state);

    // The GM whispers to Bo: he hears it, Cy does not, and that stays so after later entries.
    const before = t.state;
    expect(audience(before, bo)).toBe(audience(before, cy));
    t.run(gm, { type: 'say', text: 'a word for Bo', to: 'p-bo' });
    t.run(cy, { type: 'roll', actor: { name: 'Roller', dice: 2 }, reactor: { name: 'Opposition', dice: 2 } });
    expect(audience(t.state, bo)).not.toBe(audience(t.state, cy));
    expectSharedViewsEqual(t.state);
    // The state before the whisper, asked again, keeps Bo apart too: more audiences than needed, never fewer.
    expect(audience(before, bo)).not.toBe(audience(before, cy));
    expectSharedViewsEqual(before);

    const dwarf = new Recorded(SEATS, seededDice(6), { settings: { physicalDice: false } });
    dwarf.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
    const [id] = Object.keys(dwarf.state.characters) as [string];
    dwarf.run(gm, { type: 'add-character', sheet: sheet('merchant-privateer-scoundrel.yaml'), hidden: true });
    dwarf.run(ann, { type: 'encounter', command: { type: 'escalate', actor: id, to: 'non-violent' } });
    // Ann's own last action is hers to undo: she is apart from the players who cannot.
    expect(audience(dwarf.state, ann)).not.toBe(audience(dwarf.state, bo));
    expect(audience(dwarf.state, bo)).toBe(audience(dwarf.state, cy));
    expectSharedViewsEqual(dwarf.state);
  });
});
