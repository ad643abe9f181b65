import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { poolDice, type EnteredPools } from '@personae/core';
import { givenDice, seededDice, type DiceSource } from '@personae/dice';
import { sheet } from '../helpers/sheets';
import { LOG_VIEW_LIMIT, entryLines, personaeTable, tableLog, type TableCommandInput, type TableEvent, type TableState, type Viewer } from '../../src/index';

const gm: Viewer = { role: 'gm', participantId: 'p-gm' };
const ann: Viewer = { role: 'player', participantId: 'p-ann' };
const bob: Viewer = { role: 'player', participantId: 'p-bob' };
const watcher: Viewer = { role: 'observer', participantId: 'p-obs' };

type Opts = { dice?: DiceSource; pools?: EnteredPools; physicalDice?: boolean };

/** A table driven the way the server drives it: parse, decide, fold every event through JSON. */
class Table {
  state: TableState = personaeTable.initialState();
  events: TableEvent[] = [];
  constructor(private dice: DiceSource = seededDice(7)) {}
  /** `pools`: dice typed in at the table, by named pool; the rest come from `dice` (or the table's). */
  run(viewer: Viewer, raw: TableCommandInput, opts: Opts = {}): TableEvent[] {
    const parsed = personaeTable.parseCommand(raw);
    if (!parsed.ok) throw Object.assign(new Error(parsed.error.message), { code: parsed.error.code });
    const dice = poolDice(opts.pools ?? {}, opts.dice ?? this.dice);
    const events = personaeTable.decide(this.state, parsed.command, { actor: viewer, dice, now: '2026-11-22T12:00:00.000Z', settings: { physicalDice: opts.physicalDice ?? false } });
    for (const e of events) {
      const stored = JSON.parse(JSON.stringify(e)) as TableEvent;
      this.state = personaeTable.evolve(this.state, stored);
      this.events.push(stored);
    }
    return events;
  }
  refused(viewer: Viewer, raw: TableCommandInput, code: string, opts: Opts = {}): void {
    const before = JSON.stringify(this.state);
    expect(() => this.run(viewer, raw, opts)).toThrow(expect.objectContaining({ code }));
    expect(JSON.stringify(this.state)).toBe(before);
  }
}

function setUp(): Table {
  const t = new Table();
  t.run(ann, { type: 'add-character', sheet: sheet('dwarf-iron-constitution.yaml') });
  t.run(gm, { type: 'add-character', sheet: sheet('merchant-privateer-scoundrel.yaml'), hidden: true });
  return t;
}

describe('the Personae table domain', () => {
  it('a player adds a character for themselves; the GM adds a hidden adversary', () => {
    const t = setUp();
    const [dwarf, merchant] = Object.values(t.state.characters);
    expect(dwarf!.owner).toBe('p-ann');
    expect(dwarf!.hidden).toBe(false);
    expect(merchant!.owner).toBeNull();
    expect(merchant!.hidden).toBe(true);
    expect(t.state.encounter.now?.roster).toEqual([dwarf!.id, merchant!.id]);
  });

  it('refuses a sheet that does not parse, naming the field, and changes nothing', () => {
    const t = setUp();
    t.refused(ann, { type: 'add-character', sheet: { name: 'Nobody' } }, 'invalid-sheet');
  });

  it('players act only for their own characters; observers not at all', () => {
    const t = setUp();
    const [dwarf, merchant] = Object.keys(t.state.characters);
    t.refused(bob, { type: 'encounter', command: { type: 'escalate', actor: dwarf!, to: 'non-violent' } }, 'not-your-character');
    t.refused(ann, { type: 'encounter', command: { type: 'escalate', actor: merchant!, to: 'non-violent' } }, 'not-your-character');
    t.refused(ann, { type: 'encounter', command: { type: 'begin-scene', actor: 'gm' } }, 'gm-only');
    t.refused(watcher, { type: 'roll', actor: { name: 'A', dice: 2 }, reactor: { name: 'B', dice: 2 } }, 'observer');
    t.refused(ann, { type: 'set-visibility', id: merchant!, hidden: false }, 'gm-only');
  });

  it('a free roll is resolved by the challenge engine and logged with every die', () => {
    const t = new Table();
    t.run(gm, { type: 'roll', actor: { name: 'Actor', dice: 3, modifiers: [{ value: 3, source: 'attribute' }] }, reactor: { name: 'Reactor', dice: 2, modifiers: [{ value: 2, source: 'attribute' }] } }, { dice: givenDice([7, 5, 2, 8, 6]) });
    const entry = tableLog(t.state).at(-1)!;
    expect(entry.result?.decidedBy).toBe('extra-dice');
    expect(entry.result?.actor.roll.rolled).toEqual([7, 5, 2]);
    expect(entry.lines.join('\n')).toMatch(/wins on extra dice/);
  });

  it("a view carries a roll's explanation once, in its result, and its lines read from there", () => {
    const t = new Table();
    t.run(gm, { type: 'roll', actor: { name: 'Actor', dice: 3 }, reactor: { name: 'Reactor', dice: 2 } }, { dice: givenDice([7, 5, 2, 8, 6]) });
    t.run(gm, { type: 'say', text: 'Well rolled.' });
    for (const viewer of [gm, ann, watcher]) {
      const [roll, said] = personaeTable.viewState(t.state, viewer).log.slice(-2);
      expect(roll!.lines).toBeUndefined();
      expect(entryLines(roll!)).toEqual(tableLog(t.state).at(-2)!.lines);
      expect(entryLines(roll!).join('\n')).toMatch(/Pair #1: 7\+0 = 7 against 8\+0 = 8/);
      expect(said!.lines).toEqual(['Well rolled.']);
      const wire = JSON.stringify(roll);
      expect(wire.split('Pair #1: 7+0 = 7 against 8+0 = 8').length - 1).toBe(1);
    }
  });

  it('a free roll takes assistants by the table\'s assist option and steering', () => {
    const t = new Table();
    t.run(gm, { type: 'configure', preset: 'srd-v4', options: {} });
    const sides = { actor: { name: 'A', dice: 1 }, reactor: { name: 'R', dice: 1 } };
    t.run(gm, { type: 'roll', ...sides, assistants: ['Ben'] }, { pools: { actor: [3], reactor: [9] } });
    expect(tableLog(t.state).at(-1)!.result).toMatchObject({ outcome: 'success', grade: 'glancing' });
    t.run(gm, { type: 'roll', ...sides, steer: { steps: 2, source: 'spent 2 criticals' } }, { pools: { actor: [3], reactor: [9] } });
    expect(tableLog(t.state).at(-1)!.result).toMatchObject({ outcome: 'success', grade: 'clear' });
    t.run(gm, { type: 'configure', preset: 'core-2011', options: {} });
    t.run(gm, { type: 'roll', ...sides, assistants: ['Ben'] }, { pools: { actor: [3], reactor: [4] } });
    expect(tableLog(t.state).at(-1)!.result).toMatchObject({ outcome: 'tie' });
  });

  it('the log is shared between states but each state reads only its own entries (an append is O(1))', () => {
    const t = new Table();
    for (let i = 0; i < 3; i++) t.run(gm, { type: 'roll', actor: { name: `A${i}`, dice: 1 }, reactor: { name: 'B', dice: 1 } });
    const middle = t.state;
    for (let i = 3; i < 6; i++) t.run(gm, { type: 'roll', actor: { name: `A${i}`, dice: 1 }, reactor: { name: 'B', dice: 1 } });
    const newest = t.state;
    expect(middle.log.shared).toBe(newest.log.shared);
    expect(tableLog(middle).map((e) => e.result!.actor.name)).toEqual(['A0', 'A1', 'A2']);
    // A branch from the older state (a replay, a decision that was not stored) leaves the newer one alone.
    const branch = personaeTable.evolve(middle, { ...t.events[3]!, result: { ...(t.events[3] as Extract<TableEvent, { type: 'rolled' }>).result, actor: { ...(t.events[3] as Extract<TableEvent, { type: 'rolled' }>).result.actor, name: 'Other' } } } as TableEvent);
    expect(tableLog(branch).map((e) => e.result!.actor.name)).toEqual(['A0', 'A1', 'A2', 'Other']);
    expect(tableLog(newest).map((e) => e.result!.actor.name)).toEqual(['A0', 'A1', 'A2', 'A3', 'A4', 'A5']);
    expect(tableLog(middle)).toHaveLength(3);
    expect(personaeTable.viewState(middle, gm).log).toHaveLength(3);
  });

  it('a view carries the newest log entries and says how many older ones it left out', () => {
    const t = new Table();
    for (let i = 0; i < LOG_VIEW_LIMIT + 3; i++) t.run(gm, { type: 'roll', actor: { name: 'A', dice: 1 }, reactor: { name: 'B', dice: 1 }, hidden: i === 0 });
    const gmView = personaeTable.viewState(t.state, gm);
    expect(gmView.log).toHaveLength(LOG_VIEW_LIMIT);
    // The secret roll writes two entries: the roll (the GM's) and its commitment (everyone's).
    expect(gmView.logOmitted).toBe(4);
    expect(gmView.log.at(-1)!.seq).toBe(t.state.seq);
    expect(personaeTable.viewState(t.state, ann).logOmitted).toBe(3);
  });

  it('views kept up to date event by event equal views of the same state folded anew', () => {
    // The view remembers each kind of viewer's log window per log and only reads the entries
    // appended since; a state folded from the events anew has a log of its own, read whole.
    const t = setUp();
    const [dwarf, merchant] = Object.keys(t.state.characters) as [string, string];
    const viewers = [gm, ann, bob, watcher];
    const fresh = () => t.events.reduce((s, e) => personaeTable.evolve(s, e), personaeTable.initialState());
    const free = { name: 'A', dice: 1 };
    for (let i = 0; i < LOG_VIEW_LIMIT + 40; i++) {
      if (i % 7 === 0) t.run(gm, { type: 'say', text: `to Ann ${i}`, to: 'p-ann' });
      else if (i % 11 === 0) t.run(gm, { type: 'roll', actor: free, reactor: free, hidden: true });
      else if (i === 300) t.run(gm, { type: 'set-visibility', id: merchant, hidden: false });
      else if (i === 420) t.run(gm, { type: 'set-visibility', id: merchant, hidden: true });
      else if (i % 13 === 0) t.run(ann, { type: 'encounter', command: { type: 'unopposed', actor: dwarf, skill: 'Athletics', difficulty: 'normal' } });
      else t.run(i % 2 ? ann : bob, { type: 'roll', actor: free, reactor: free });
      // Every viewer's view after every command (the server's way), checked against a fresh fold now and then.
      const views = viewers.map((v) => personaeTable.viewState(t.state, v));
      if (i % 37 === 0 || i >= LOG_VIEW_LIMIT + 35) {
        const again = fresh();
        viewers.forEach((v, k) => expect(JSON.stringify(personaeTable.viewState(again, v)), `${v.participantId} after ${i}`).toBe(JSON.stringify(views[k])));
      }
    }
    const last = personaeTable.viewState(t.state, ann);
    expect(last.log).toHaveLength(LOG_VIEW_LIMIT);
    expect(last.logOmitted).toBeGreaterThan(0);
    // An earlier state of the same log is still shown as it was.
    const earlier = t.events.slice(0, 100).reduce((s, e) => personaeTable.evolve(s, e), personaeTable.initialState());
    const earlierView = personaeTable.viewState(earlier, ann);
    expect(earlierView.log.at(-1)!.seq).toBeLessThanOrEqual(earlier.seq);
    expect(JSON.stringify(personaeTable.viewState(t.state, ann))).toBe(JSON.stringify(last));
  });

  it('entered dice from a player need the table to allow physical dice', () => {
    const t = new Table();
    const roll: TableCommandInput = { type: 'roll', actor: { name: 'A', dice: 1 }, reactor: { name: 'B', dice: 1 } };
    const pools = { actor: [9] };
    t.refused(ann, roll, 'physical-dice-off', { pools });
    t.run(ann, roll, { physicalDice: true, pools });
    // A mixed roll: the player's own die as entered, the opposition's rolled by the table.
    const mixed = tableLog(t.state).at(-1)!.result!;
    expect([mixed.actor.roll.source, mixed.actor.roll.rolled]).toEqual(['given', [9]]);
    expect(mixed.reactor.roll.source).toBe('seeded');
    t.run(gm, roll, { pools });
  });

  it('entered pools that do not fit the roll are refused by name, and change nothing', () => {
    const t = new Table();
    const roll: TableCommandInput = { type: 'roll', actor: { name: 'A', dice: 2 }, reactor: { name: 'B', dice: 1 } };
    const refusal = (pools: EnteredPools) => {
      const before = JSON.stringify(t.state);
      let error: { code?: string; message?: string; field?: string } = {};
      try {
        t.run(gm, roll, { pools });
      } catch (e) {
        error = e as typeof error;
      }
      expect(JSON.stringify(t.state)).toBe(before);
      return error;
    };
    expect(refusal({ actor: [9] })).toMatchObject({ code: 'dice-count', field: 'dice.actor', message: expect.stringMatching(/1 die was entered, but A's roll \(.*\) takes 2/) });
    expect(refusal({ actor: [9, 11] })).toMatchObject({ code: 'dice-face', field: 'dice.actor', message: expect.stringMatching(/die #2 is 11, but a d10 shows 1 to 10/) });
    expect(refusal({ target: [3] })).toMatchObject({ code: 'dice-pool', field: 'dice.target', message: expect.stringMatching(/rolls no pool "target"; it rolls "actor"/) });
    expect(refusal({ difficulty: [3] })).toMatchObject({ code: 'dice-pool', field: 'dice.difficulty' });
    // Rerolls are drawn only when the rules call for them: unused ones are refused after the roll.
    expect(refusal({ actor: [9, 1], reactor: [2], rerolls: [4] })).toMatchObject({ code: 'dice-pool', field: 'dice.rerolls', message: expect.stringMatching(/rolled nothing in pool "rerolls"/) });
    expect(tableLog(t.state)).toHaveLength(0);
  });

  describe('dice authority: a player enters dice only for their own pools; the GM for any', () => {
    // Initiative rolls for the action order, so escalating to violence rolls a pool for each character.
    const ordered = () => {
      const table = setUp();
      table.run(gm, { type: 'configure', preset: 'core-2011', options: { actionOrder: 'initiative-skill' } });
      return table;
    };
    const t = ordered();
    const [dwarf, merchant] = Object.keys(t.state.characters) as [string, string];
    const free = { name: 'A', dice: 1 };
    const attack = { type: 'encounter', command: { type: 'attack', actor: dwarf, target: merchant } } as const;
    const unopposed = { type: 'encounter', command: { type: 'unopposed', actor: dwarf, skill: 'Athletics', difficulty: 'normal' } } as const;
    const cases: Array<[string, TableCommandInput, EnteredPools, 'ok' | string]> = [
      ['own free pool', { type: 'roll', actor: free, reactor: free }, { actor: [4] }, 'ok'],
      ["the reactor's free pool", { type: 'roll', actor: free, reactor: free }, { reactor: [4] }, 'not-your-dice'],
      ["the GM's difficulty dice", { type: 'roll', actor: free, difficulty: 2 }, { difficulty: [4] }, 'not-your-dice'],
      ["own character's attack dice", attack, { actor: [5, 5, 5, 5, 5, 5] }, 'ok-or-rule'],
      ["the hidden adversary's dice in an attack on it", attack, { [`target:${merchant}`]: [1] }, 'not-your-dice'],
      ['rerolls of both sides', attack, { rerolls: [1] }, 'not-your-dice'],
      ['a pool the attack does not roll', attack, { difficulty: [1] }, 'dice-pool'],
      ["own character's dice in an unopposed challenge", unopposed, { actor: [5] }, 'ok-or-rule'],
      ["the GM's difficulty dice in an unopposed challenge", unopposed, { difficulty: [1] }, 'not-your-dice'],
      // The merchant is hidden: its pool is answered as no one's, so the refusal never confirms it.
      ["a hidden character's order roll", { type: 'encounter', command: { type: 'escalate', actor: dwarf, to: 'violent' } }, { [`order:${merchant}`]: [1] }, 'hidden'],
      ['an order roll when the escalation rolls none', { type: 'encounter', command: { type: 'escalate', actor: dwarf, to: 'non-violent' } }, { [`order:${dwarf}`]: [1] }, 'dice-pool'],
    ];
    for (const [what, raw, pools, expected] of cases) {
      it(`${what}: ${expected}`, () => {
        if (expected.startsWith('ok')) {
          try {
            t.run(ann, raw, { physicalDice: true, pools });
          } catch (e) {
            // A rule of the encounter may refuse the attack itself (not its turn): never over the dice.
            expect((e as { code?: string }).code).not.toMatch(/dice/);
          }
        } else {
          t.refused(ann, raw, expected === 'hidden' ? 'dice-pool' : expected, { physicalDice: true, pools });
          const before = JSON.stringify(t.state);
          const asGm = ordered();
          try {
            asGm.run(gm, raw, { physicalDice: false, pools });
          } catch (e) {
            // The GM may fill any pool the command rolls; a pool it does not roll is refused to anyone.
            if (expected === 'dice-pool') expect((e as { code?: string }).code).toBe('dice-pool');
            else expect((e as { code?: string }).code).not.toMatch(/dice/);
          }
          expect(JSON.stringify(t.state)).toBe(before);
        }
      });
    }
    it('a refusal lists only the pools the player may fill, never a hidden character', () => {
      let message = '';
      try {
        t.run(ann, attack, { physicalDice: true, pools: { difficulty: [1] } });
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(/it rolls "actor"/);
      // the command's name takes the article it is spoken with: "an attack", "a roll"
      expect(message).toMatch(/^dice\.difficulty: an attack command rolls no pool "difficulty"/);
      expect(() => t.run(ann, { type: 'roll', actor: free, reactor: free }, { physicalDice: true, pools: { reactor: [4] } })).toThrow(/; in a roll command you may fill "actor"/);
      expect(message).not.toContain(merchant);
      expect(message).not.toMatch(/Merchant|Privateer|Scoundrel/i);
    });
  });

  it("a player never sees a hidden character's sheet, in the view or in any event", () => {
    const t = setUp();
    const merchantId = Object.keys(t.state.characters)[1]!;
    const merchantName = t.state.characters[merchantId]!.sheet.name;
    const view = personaeTable.viewState(t.state, ann);
    const hiddenInView = view.characters.find((c) => c.id === merchantId);
    expect(hiddenInView?.sheet).toBeNull();
    expect(hiddenInView?.play && 'def' in hiddenInView.play).toBe(false);
    const concept = t.state.characters[merchantId]!.sheet.concept;
    expect(JSON.stringify(view)).not.toContain(concept);
    let stateSoFar = personaeTable.initialState();
    let seenByAnn = '';
    for (const e of t.events) {
      stateSoFar = personaeTable.evolve(stateSoFar, e);
      seenByAnn += JSON.stringify(personaeTable.redactEvent(e, ann, stateSoFar));
    }
    expect(seenByAnn).not.toContain(concept);
    expect(JSON.stringify(t.events)).toContain(concept);
    const gmView = personaeTable.viewState(t.state, gm);
    expect(gmView.characters.find((c) => c.id === merchantId)?.sheet?.name).toBe(merchantName);
  });

  it('a hidden roll reaches only the GM', () => {
    const t = new Table();
    const [e] = t.run(gm, { type: 'roll', actor: { name: 'A', dice: 2 }, reactor: { name: 'B', dice: 2 }, hidden: true });
    expect(personaeTable.redactEvent(e!, ann, t.state)).toBeNull();
    expect(personaeTable.redactEvent(e!, gm, t.state)).not.toBeNull();
    // Players read only the commitment to its dice (a sealed roll, see secret.test.ts).
    expect(personaeTable.viewState(t.state, ann).log.map((l) => Object.keys(l).sort())).toEqual([['at', 'by', 'characters', 'commitment', 'hidden', 'lines', 'seq']]);
    expect(personaeTable.viewState(t.state, gm).log).toHaveLength(2);
  });

  it('an attack in a violent encounter goes through the encounter engine, and the GM can undo it', () => {
    const t = setUp();
    const [dwarf, merchant] = Object.keys(t.state.characters);
    t.run(gm, { type: 'encounter', command: { type: 'escalate', actor: dwarf!, to: 'non-violent' } });
    t.run(gm, { type: 'encounter', command: { type: 'escalate', actor: dwarf!, to: 'violent' } });
    expect(t.state.encounter.now?.combat?.order[0]).toBe(dwarf);
    t.run(ann, { type: 'encounter', command: { type: 'attack', actor: dwarf!, target: merchant! } });
    const attack = tableLog(t.state).filter((e) => e.result).at(-1)!;
    expect(attack.result?.actor.name).toBe(t.state.characters[dwarf!]!.sheet.name);
    expect(attack.lines.join(' ')).toMatch(/Pair #1/);
    const before = t.state.encounter.undoTo;
    expect(before).not.toBeNull();
    t.refused(ann, { type: 'encounter', command: { type: 'undo', actor: 'gm' } }, 'gm-only');
    const lastBeforeAttack = tableLog(t.state).filter((e) => e.seq < attack.seq && !/attacks/.test(e.lines.join(' '))).at(-1)!;
    // An undo asked from an older version (a player acted since) is refused; one without it too.
    t.refused(gm, { type: 'encounter', command: { type: 'undo', actor: 'gm' }, seen: t.state.seq - 1 }, 'stale');
    t.refused(gm, { type: 'encounter', command: { type: 'undo', actor: 'gm' } }, 'seen-required');
    t.run(gm, { type: 'encounter', command: { type: 'undo', actor: 'gm' }, seen: t.state.seq });
    t.refused(gm, { type: 'encounter', command: { type: 'redo', actor: 'gm' }, seen: t.state.seq - 1 }, 'stale');
    expect(personaeTable.viewState(t.state, gm).canRedo).toBe(true);
    expect(tableLog(t.state).at(-1)!.lines[0]).toMatch(/^UNDO: back to where the table stood after entry #\d+/);
    const target = Number(/#(\d+)/.exec(tableLog(t.state).at(-1)!.lines[0]!)![1]);
    expect(target).toBeLessThan(attack.seq);
    expect(target).toBeGreaterThanOrEqual(lastBeforeAttack.seq - 1);
  });

  it('advancement: the GM awards, the owner spends, and play uses the new sheet', () => {
    const t = setUp();
    const dwarf = Object.keys(t.state.characters)[0]!;
    const threshold = () => t.state.encounter.now!.characters[dwarf]!.def.hitsBeforeInjured;
    const before = threshold();
    t.refused(ann, { type: 'advance', id: dwarf, command: { type: 'award', points: 1 } }, 'gm-only');
    t.run(gm, { type: 'advance', id: dwarf, command: { type: 'award', points: 1 } });
    t.refused(bob, { type: 'advance', id: dwarf, command: { type: 'spend', purchase: { kind: 'hit' } } }, 'not-your-character');
    t.run(ann, { type: 'advance', id: dwarf, command: { type: 'spend', purchase: { kind: 'hit' } } });
    expect(threshold()).toBe(before! + 1);
    expect(t.state.characters[dwarf]!.sheet.history?.length).toBe(2);
    expect(tableLog(t.state).some((e) => /spent 1 development point on hit/.test(e.lines.join(' ')))).toBe(true);
    const before2 = JSON.stringify(t.state);
    expect(() => t.run(ann, { type: 'advance', id: dwarf, command: { type: 'spend', purchase: { kind: 'hit' } } })).toThrow(/point/);
    expect(JSON.stringify(t.state)).toBe(before2);
  });

  describe('option unspentTraits (personae-core-2011.txt "Step 4: Determine Maximum Number of Traits")', () => {
    // The dwarf has Competence 4 and three skills: one skill slot was left unspent at creation.
    const define = (id: string) => ({ type: 'advance' as const, id, command: { type: 'spend' as const, purchase: { kind: 'unspent-slot' as const, trait: { type: 'skill' as const, skill: { name: 'Tunnel Sense', attribute: 'knowledge' as const, dice: 2 } } } } });

    it('between-sessions: refused while a session is in progress, allowed once the GM ends it', () => {
      const t = setUp();
      const dwarf = Object.keys(t.state.characters)[0]!;
      expect(t.state.options.unspentTraits).toBe('between-sessions');
      t.refused(ann, define(dwarf), 'unspent-traits-between-sessions');
      expect(() => t.run(ann, define(dwarf))).toThrow(/option unspentTraits = between-sessions/);
      t.refused(ann, { type: 'encounter', command: { type: 'end-session', actor: 'gm' } }, 'gm-only');
      t.run(gm, { type: 'encounter', command: { type: 'end-session', actor: 'gm' } });
      expect(t.state.encounter.now?.betweenSessions).toBe(true);
      t.run(ann, define(dwarf));
      expect(t.state.characters[dwarf]!.sheet.skills.map((s) => s.name)).toContain('Tunnel Sense');
      expect(t.state.encounter.now?.characters[dwarf]?.def.skills.some((s) => s.name === 'Tunnel Sense')).toBe(true);
      expect(tableLog(t.state).at(-2)?.lines.join(' ')).toMatch(/define the skill Tunnel Sense in an unspent creation slot/);
      // The next session begins: in session again.
      t.run(gm, { type: 'encounter', command: { type: 'begin-session', actor: 'gm' } });
      expect(t.state.encounter.now?.betweenSessions).toBe(false);
      t.run(gm, { type: 'advance', id: dwarf, command: { type: 'undo' } });
      t.refused(ann, define(dwarf), 'unspent-traits-between-sessions');
    });

    it('during-session: allowed while a session is in progress; the creation maxima still hold', () => {
      const t = setUp();
      const dwarf = Object.keys(t.state.characters)[0]!;
      t.run(gm, { type: 'configure', preset: 'core-2011', options: { unspentTraits: 'during-session' } });
      t.run(ann, define(dwarf));
      expect(t.state.characters[dwarf]!.sheet.skills.map((s) => s.name)).toContain('Tunnel Sense');
      const another = define(dwarf);
      another.command.purchase.trait.skill.name = 'Masonry';
      t.refused(ann, another, 'skills-within-competence');
    });
  });

  it('option prioritiesChangeable: a change of priorities is refused at a table that keeps them, and undoable where allowed', () => {
    const t = setUp();
    const dwarf = Object.keys(t.state.characters)[0]!;
    const before = t.state.characters[dwarf]!.sheet.priorities;
    const change = { type: 'advance' as const, id: dwarf, command: { type: 'spend' as const, purchase: { kind: 'priorities' as const, priorities: { ...before, third: before.handicap, handicap: before.third } } } };
    t.refused(ann, change, 'priorities-changeable');
    t.run(gm, { type: 'configure', preset: 'core-2011', options: { prioritiesChangeable: true } });
    t.run(ann, change);
    expect(t.state.characters[dwarf]!.sheet.priorities.third).toBe(before.handicap);
    expect(t.state.characters[dwarf]!.sheet.history.at(-1)).toMatchObject({ type: 'spend', cost: 0, purchase: { kind: 'priorities' } });
    t.run(ann, { type: 'advance', id: dwarf, command: { type: 'undo' } });
    expect(t.state.characters[dwarf]!.sheet.priorities).toEqual(before);
  });

  it('the view tallies the successes and failures of each character for development points (option developmentCountsOnlyClear)', () => {
    const t = setUp();
    const [dwarf, merchant] = Object.keys(t.state.characters);
    t.run(gm, { type: 'configure', preset: 'srd-v4', options: {} });
    t.run(ann, { type: 'encounter', command: { type: 'interact', actor: dwarf!, target: merchant!, skill: 'Stonecraft' } });
    t.run(ann, { type: 'encounter', command: { type: 'move', actor: dwarf!, to: 'adjacent' } });
    const result = tableLog(t.state).filter((e) => e.result).at(-1)!.result!;
    expect(result.outcome).not.toBe('tie');
    const expected = {
      session: 1,
      successes: result.outcome === 'success' && result.grade === 'clear' ? 1 : 0,
      failures: result.outcome === 'failure' ? 1 : 0,
      uncounted: result.outcome === 'success' && result.grade === 'glancing' ? 1 : 0,
    };
    const forGm = personaeTable.viewState(t.state, gm);
    expect(forGm.development.countsOnlyClear).toBe(true);
    expect(forGm.development.characters.map((r) => r.id)).toEqual([dwarf, merchant]);
    expect(forGm.development.characters[0]).toMatchObject({ id: dwarf, tally: expected, lastSession: null });
    // A player sees the tallies of the characters whose sheets they see, and where they stand.
    const forAnn = personaeTable.viewState(t.state, ann);
    expect(forAnn.development.characters.map((r) => r.id)).toEqual([dwarf]);
    expect(forAnn.characters.find((c) => c.id === dwarf)?.play?.position).toBe('adjacent');
    expect(forAnn.characters.find((c) => c.id === merchant)?.play?.tally).toEqual({ session: 1, successes: 0, failures: 0, uncounted: 0 });
  });

  it('the GM changes the options; the encounter follows them', () => {
    const t = setUp();
    t.run(gm, { type: 'configure', preset: 'srd-v4', options: { fullTie: 'reactor' } });
    expect(t.state.options.criticals).toBe('srd-v4');
    expect(t.state.encounter.now?.options.fullTie).toBe('reactor');
    t.refused(gm, { type: 'configure', preset: 'srd-v4', options: { fullTie: 'coin' } as never }, 'invalid-command');
  });

  it('replaying the stored events gives the same state (property)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 6 }), (seed, pools) => {
        const t = new Table(seededDice(seed));
        for (const n of pools) t.run(ann, { type: 'roll', actor: { name: 'A', dice: n }, reactor: { name: 'B', dice: 6 - n } });
        const replayed = t.events.reduce(personaeTable.evolve, personaeTable.initialState());
        expect(replayed).toEqual(t.state);
      }),
      { numRuns: 30 },
    );
  });
});

describe('table talk', () => {
  it('a whisper is in the log of its speaker and its recipient only; words said aloud are in everyone’s', () => {
    const t = new Table();
    t.run(ann, { type: 'say', text: 'We take the ford.' });
    t.run(ann, { type: 'say', text: 'I pocket the key.', to: 'gm' });
    t.run(gm, { type: 'say', text: 'The key is warm.', to: 'p-ann' });
    const heard = (v: Viewer) => personaeTable.viewState(t.state, v).log.map((e) => entryLines(e)[0]);
    expect(heard(gm)).toEqual(['We take the ford.', 'I pocket the key.', 'The key is warm.']);
    expect(heard(ann)).toEqual(['We take the ford.', 'I pocket the key.', 'The key is warm.']);
    expect(heard(bob)).toEqual(['We take the ford.']);
    expect(heard(watcher)).toEqual(['We take the ford.']);
    expect(t.events.map((e) => personaeTable.redactEvent(e, bob, t.state) !== null)).toEqual([true, false, false]);
    expect(personaeTable.viewState(t.state, gm).log[1]).toMatchObject({ by: 'p-ann', said: { to: 'gm' }, hidden: false });
  });

  it('refuses whispers outside GM and player, and empty words, changing nothing', () => {
    const t = new Table();
    t.refused(ann, { type: 'say', text: 'psst', to: 'p-bob' }, 'whisper-to-gm');
    t.refused(gm, { type: 'say', text: 'note to self', to: 'gm' }, 'whisper-to-self');
    t.refused(ann, { type: 'say', text: '  ' }, 'invalid-command');
    t.refused(watcher, { type: 'say', text: 'hello' }, 'observer');
  });
});
