import { describe, expect, it } from 'vitest';
import { seededDice } from '@personae/dice';
import { resourceCap } from '../../src/character';
import { sheet } from '../helpers/sheets';
import { personaeTable, tableLog, type TableCommandInput, type TableEvent, type TableState, type Viewer } from '../../src/index';

const gm: Viewer = { role: 'gm', participantId: 'p-gm' };
const ann: Viewer = { role: 'player', participantId: 'p-ann' };
const bob: Viewer = { role: 'player', participantId: 'p-bob' };

/** Driven as the server drives it: parse, decide, fold each event through JSON. */
class Table {
  state: TableState = personaeTable.initialState();
  run(viewer: Viewer, raw: TableCommandInput): TableEvent[] {
    const parsed = personaeTable.parseCommand(raw);
    if (!parsed.ok) throw Object.assign(new Error(parsed.error.message), { code: parsed.error.code });
    const events = personaeTable.decide(this.state, parsed.command, { actor: viewer, dice: seededDice(3), now: '2026-11-26T02:00:00.000Z', settings: { physicalDice: false } });
    for (const e of events) this.state = personaeTable.evolve(this.state, JSON.parse(JSON.stringify(e)) as TableEvent);
    return events;
  }
  refused(viewer: Viewer, raw: TableCommandInput, code: string): Error & { code?: string; rule?: string } {
    const before = JSON.stringify(this.state);
    let error: unknown;
    try {
      this.run(viewer, raw);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code });
    expect(JSON.stringify(this.state)).toBe(before);
    return error as Error & { code?: string; rule?: string };
  }
  cap(id: string): number {
    return resourceCap(this.state.characters[id]!.sheet).total;
  }
}

/** Ann plays the merchant, whose one Resource talent (Smuggler's Contacts) gives a Resource Cap of 1. */
function setUp(): { t: Table; id: string } {
  const t = new Table();
  t.run(gm, { type: 'add-character', sheet: sheet('merchant-privateer-scoundrel.yaml'), owner: 'p-ann' });
  const id = Object.keys(t.state.characters)[0]!;
  return { t, id };
}

describe('Resources at the table (personae-core-2011.txt "Resources")', () => {
  it('an item whose cost is above the Resource Cap cannot be bought; one at or below it can', () => {
    const { t, id } = setUp();
    expect(t.cap(id)).toBe(1);
    const e = t.refused(ann, { type: 'purchase', id, item: 'a racing sloop', cost: 4 }, 'over-resource-cap');
    expect(e.message).toMatch(/cost 4 \(rare\) is above the Resource Cap of 1/);
    expect(e.rule).toEqual({ document: 'personae-core-2011.txt', section: 'Resources' });
    // Cost 1 is Uncommon in the documents' example bands, and within the Cap.
    t.run(ann, { type: 'purchase', id, item: 'a brace of pistols', cost: 1 });
    expect(tableLog(t.state).at(-1)!.lines.join(' ')).toMatch(/buys a brace of pistols \(cost 1, uncommon; Resource Cap 1\)/);
    expect(t.cap(id)).toBe(1);
  });

  it('only the owner or the GM buys for a character; only the GM rules that a purchase lowers the Cap', () => {
    const { t, id } = setUp();
    t.refused(bob, { type: 'purchase', id, item: 'rope', cost: 0 }, 'not-your-character');
    t.refused(ann, { type: 'purchase', id, item: 'a pistol', cost: 1, lowersCap: 1 }, 'gm-only');
    t.run(gm, { type: 'purchase', id, item: 'a pistol', cost: 1, lowersCap: 1 });
    expect(t.cap(id)).toBe(0);
    expect(t.state.characters[id]!.sheet.resourceCapLost).toBe(1);
    // Common items (cost 0) stay within a Cap of nothing.
    t.run(ann, { type: 'purchase', id, item: 'a loaf of bread', cost: 0 });
    t.refused(ann, { type: 'purchase', id, item: 'a lantern', cost: 1 }, 'over-resource-cap');
  });

  it('a temporary boost raises the Cap for its number of scenes, counting down as scenes end', () => {
    const { t, id } = setUp();
    t.refused(ann, { type: 'resource-boost', id, amount: 5, scenes: 2 }, 'gm-only');
    t.run(gm, { type: 'resource-boost', id, amount: 5, scenes: 2, reason: 'a cache of jewels' });
    expect(t.cap(id)).toBe(6);
    t.run(ann, { type: 'purchase', id, item: 'a racing sloop', cost: 4 });
    t.run(gm, { type: 'encounter', command: { type: 'begin-scene', actor: 'gm' } });
    expect(t.state.characters[id]!.sheet.resourceBoosts).toEqual([{ amount: 5, scenes: 1, reason: 'a cache of jewels' }]);
    expect(t.cap(id)).toBe(6);
    // A new day ends the scene too: the boost is spent.
    t.run(gm, { type: 'encounter', command: { type: 'begin-day', actor: 'gm' } });
    expect(t.state.characters[id]!.sheet.resourceBoosts).toEqual([]);
    expect(t.cap(id)).toBe(1);
    expect(tableLog(t.state).at(-1)!.lines.join(' ')).toMatch(/boosts count down \(1 spent\), Resource Cap now 1/);
    t.refused(ann, { type: 'purchase', id, item: 'another sloop', cost: 4 }, 'over-resource-cap');
  });

  it("a player cannot write boosts or the Cap's losses on the sheet", () => {
    const { t, id } = setUp();
    const own = JSON.parse(JSON.stringify(t.state.characters[id]!.sheet)) as Record<string, unknown>;
    t.refused(ann, { type: 'update-sheet', id, sheet: { ...own, resourceBoosts: [{ amount: 9, scenes: 9 }] } }, 'resources-protected');
    t.run(gm, { type: 'purchase', id, item: 'a pistol', cost: 1, lowersCap: 1 });
    const after = JSON.parse(JSON.stringify(t.state.characters[id]!.sheet)) as Record<string, unknown>;
    t.refused(ann, { type: 'update-sheet', id, sheet: { ...after, resourceCapLost: 0 } }, 'resources-protected');
  });
});
