import { describe, expect, it } from 'vitest';
import { describeEvent, describeSnapshot, replay, type EncounterState } from '../../src/index';
import { ALDRIC, CULTIST, given, Table } from './helpers';

describe('option distance (personae-core-2011.txt "Distance and Location")', () => {
  const aldric = (state: EncounterState) => state.now!.characters.aldric!;

  it('relative: a move ends at a relative term, kept on the character and shown; coordinates are refused naming the option', () => {
    const t = new Table();
    t.toViolence();
    const moved = given(t.log)
      .when({ type: 'move', actor: 'aldric', description: 'round the altar', to: 'very near' })
      .then([{ type: 'moved', to: 'very near' }], (after) => {
        expect(aldric(after).position).toBe('very near');
        expect(describeSnapshot(after.now!).join('\n')).toMatch(/Aldric: .*position very near/);
      });
    expect(describeEvent(moved[0]!, null)).toEqual(['aldric moves (round the altar) to very near.']);
    const e = given([...t.log, ...moved]).when({ type: 'move', actor: 'aldric', to: { x: 2, y: 3 } }).thenRefused('distance-form', /"Distance and Location"/);
    expect(e.message).toMatch(/option distance = relative/);
    expect(e.field).toBe('to');
    // A free word the group uses is a relative term too; a move without a destination keeps the last one.
    given([...t.log, ...moved])
      .when({ type: 'move', actor: 'aldric', to: 'flanking' })
      .then([{ type: 'moved', to: 'flanking' }], (after) => expect(aldric(after).position).toBe('flanking'));
  });

  it('grid: a move ends on a square; a word is refused naming the option', () => {
    const t = new Table([ALDRIC, CULTIST], { distance: 'grid' });
    let after: EncounterState | undefined;
    const moved = given(t.log)
      .when({ type: 'move', actor: 'aldric', to: { x: 4, y: -1 } })
      .then([{ type: 'moved', to: { x: 4, y: -1 } }], (state) => (after = state));
    expect(aldric(after!).position).toEqual({ x: 4, y: -1 });
    expect(describeSnapshot(after!.now!).join('\n')).toMatch(/Aldric: .*position \(4, -1\)/);
    // The log alone gives the same state: replay rolls nothing.
    expect(replay([...t.log, ...moved]).now).toEqual(after!.now);
    const e = given([...t.log, ...moved]).when({ type: 'move', actor: 'aldric', to: 'close' }).thenRefused('distance-form', /"Distance and Location"/);
    expect(e.message).toMatch(/option distance = grid/);
  });

  it('positions of the old form are cleared when the table changes how it tracks distance', () => {
    const t = new Table();
    const log = [...t.log];
    log.push(...given(log).when({ type: 'move', actor: 'aldric', to: 'pretty far' }).then([{ type: 'moved', to: 'pretty far' }]));
    log.push(
      ...given(log)
        .when({ type: 'configure', actor: 'gm', options: { preset: 'core-2011', options: { distance: 'grid' } } })
        .then([{ type: 'options-changed' }], (after) => expect(aldric(after).position).toBeNull()),
    );
    log.push(...given(log).when({ type: 'move', actor: 'aldric', to: { x: 0, y: 0 } }).then([{ type: 'moved', to: { x: 0, y: 0 } }]));
    given(log)
      .when({ type: 'configure', actor: 'gm', options: { preset: 'core-2011', options: { distance: 'grid', fullTie: 'reactor' } } })
      .then([{ type: 'options-changed' }], (after) => expect(aldric(after).position).toEqual({ x: 0, y: 0 }));
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

describe('option criticalDefaultUse ("Critical Success" in personae-core-2011.txt, personae-playing-web.txt, personae-v4-srd-playing.txt)', () => {
  const rich = { ...ALDRIC, criticals: 3 };
  const table = (use: 'gm-special' | 'automatic-success' | 'steer') => new Table([rich, CULTIST], { criticalDefaultUse: use });
  const banked = (t: Table) => (t.now.banks.aldric ?? []).reduce((s, e) => s + e.count, 0);
  const persuade = { type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade' } as const;
  const lose = { actor: [1, 1], reactor: [9, 1] };
  const win = { actor: [9, 1], reactor: [2, 1] };

  it('gm-special: a spend must say what it is for, and is recorded as turned in to the GM', () => {
    const t = table('gm-special');
    const e = t.refuse({ type: 'spend-criticals', actor: 'aldric', count: 1 }, 'spend-purpose', /personae-core-2011\.txt "Critical Success"/);
    expect(e.message).toMatch(/option criticalDefaultUse = gm-special/);
    const [spent] = t.run({ type: 'spend-criticals', actor: 'aldric', count: 1, purpose: 'the bridge gives way under the cultist' });
    expect(spent).toMatchObject({ type: 'criticals-spent', toGm: true, count: 1 });
    expect(describeEvent(spent!, t.now)).toEqual(['  Aldric turns 1 critical(s) in to the GM for something special: the bridge gives way under the cultist.']);
    expect(t.character('aldric').readiedSuccess).toBe(false);
    // On a challenge: spend.criticals needs a purpose too, and leaves the dice alone.
    t.refuse({ ...persuade, dice: lose, spend: { criticals: 1 } }, 'spend-purpose');
    t.run({ ...persuade, dice: lose, spend: { criticals: 1, purpose: 'the crowd turns on the cultist' } });
    expect(t.events('challenge-resolved').at(-1)!.result.outcome).toBe('failure');
    expect(t.events('criticals-spent').at(-1)).toMatchObject({ toGm: true, purpose: 'the crowd turns on the cultist' });
    expect(banked(t)).toBe(1);
  });

  it('automatic-success: a spend with no other purpose makes the next challenge an automatic success', () => {
    const t = table('automatic-success');
    t.refuse({ type: 'spend-criticals', actor: 'aldric', count: 2 }, 'spend-count', /personae-playing-web\.txt "Critical Success"/);
    const [spent] = t.run({ type: 'spend-criticals', actor: 'aldric', count: 1 });
    expect(spent).toMatchObject({ readies: 'aldric', purpose: expect.stringMatching(/automatic success on an upcoming challenge/) });
    expect(t.character('aldric').readiedSuccess).toBe(true);
    expect(describeSnapshot(t.now).join('\n')).toMatch(/next challenge succeeds/);
    t.refuse({ type: 'spend-criticals', actor: 'aldric', count: 1 }, 'success-readied');
    t.refuse({ ...persuade, spend: { automaticSuccess: true } }, 'success-readied');
    // An automatic success rolls nothing: dice entered for it are refused, not silently dropped.
    t.refuse({ ...persuade, dice: lose }, 'dice-pool');
    t.run(persuade);
    const r = t.events('challenge-resolved').at(-1)!.result;
    expect([r.kind, r.outcome]).toEqual(['automatic', 'success']);
    expect(t.character('aldric').readiedSuccess).toBe(false);
    expect(banked(t)).toBe(2);
    // With another purpose it is only recorded; on a challenge, spend.criticals is the automatic success.
    t.run({ type: 'spend-criticals', actor: 'aldric', count: 1, purpose: 'a lucky find' });
    expect(t.character('aldric').readiedSuccess).toBe(false);
    t.refuse({ ...persuade, spend: { criticals: 2 } }, 'spend-count');
    t.run({ ...persuade, spend: { criticals: 1 } });
    expect(t.events('challenge-resolved').at(-1)!.result.kind).toBe('automatic');
    expect(banked(t)).toBe(0);
    expect(replay(t.log).now).toEqual(t.now);
  });

  it('steer: spent before the result the next challenge succeeds; spent on a challenge it steers failure to a glancing success, as needed', () => {
    const t = table('steer');
    t.run({ type: 'spend-criticals', actor: 'aldric', count: 1 });
    expect(t.log.at(-1)).toMatchObject({ type: 'criticals-spent', readies: 'aldric', purpose: expect.stringMatching(/before knowing the result/) });
    t.run(persuade);
    expect(t.events('challenge-resolved').at(-1)!.result.kind).toBe('automatic');
    t.run({ ...persuade, dice: lose, spend: { criticals: 1 } });
    const steered = t.events('challenge-resolved').at(-1)!.result;
    expect([steered.kind, steered.outcome, steered.grade]).toEqual(['opposed', 'success', 'glancing']);
    expect(banked(t)).toBe(1);
    // A clear success needs no steering: nothing is spent.
    t.run({ ...persuade, dice: win, spend: { criticals: 1 } });
    expect(banked(t)).toBe(1);
    t.refuse({ ...persuade, spend: { criticals: 3 } }, 'spend-count');
    t.refuse({ ...persuade, spend: { criticals: 1, steer: 1 } }, 'spend-twice');
  });

  it('steer: after the dice a critical steers a failure to a glancing success and no further; a glancing success keeps its grade and nothing is spent (personae-v4-srd-playing.txt "Critical Success")', () => {
    const t = table('steer');
    t.refuse({ ...persuade, dice: lose, spend: { criticals: 2 } }, 'spend-count', /personae-v4-srd-playing\.txt "Critical Success"/);
    t.run({ ...persuade, dice: { actor: [8, 5], reactor: [9, 1] } });
    const glancing = t.events('challenge-resolved').at(-1)!.result;
    expect([glancing.outcome, glancing.grade]).toEqual(['success', 'glancing']);
    t.run({ ...persuade, dice: { actor: [8, 5], reactor: [9, 1] }, spend: { criticals: 1 } });
    const after = t.events('challenge-resolved').at(-1)!.result;
    expect([after.outcome, after.grade]).toEqual([glancing.outcome, glancing.grade]);
    expect(banked(t)).toBe(3);
  });

  it('the same spend differs between the values: the record, the readied success, the refusal', () => {
    const spendOne = (use: 'gm-special' | 'automatic-success' | 'steer') => {
      const t = table(use);
      try {
        t.run({ type: 'spend-criticals', actor: 'aldric', count: 1 });
      } catch (e) {
        return (e as Error).name;
      }
      return (t.log.at(-1) as { purpose: string }).purpose;
    };
    expect(spendOne('gm-special')).toBe('RuleError');
    expect(spendOne('automatic-success')).toMatch(/criticalDefaultUse = automatic-success/);
    expect(spendOne('steer')).toMatch(/criticalDefaultUse = steer/);
  });
});

describe('option nonViolentExtended (personae-core-2011.txt "Non-Violent Encounters")', () => {
  // Aldric persuades (2 dice + Competence 3) against the cultist's Resist (2 dice + Power 2).
  const persuade = { type: 'interact', actor: 'aldric', target: 'cultist', skill: 'Persuade' } as const;
  const win = { actor: [8, 6], reactor: [7, 1] }; // 11 against 9; then 9 against 3
  const lose = { actor: [2, 1], reactor: [9, 4] };
  const debate = (option: 'separate-challenges' | 'subsequent-challenges' | 'health-track') => {
    const t = new Table([ALDRIC, CULTIST], { nonViolentExtended: option });
    t.run({ type: 'escalate', actor: 'aldric', to: 'non-violent' });
    return t;
  };

  it('separate-challenges: each interaction is a challenge of its own; a subsequent one is refused naming the option', () => {
    const t = debate('separate-challenges');
    t.run({ ...persuade, dice: win });
    const e = t.refuse({ ...persuade, subsequent: true }, 'subsequent-not-used', /"Non-Violent Encounters"/);
    expect(e.message).toMatch(/option nonViolentExtended = separate-challenges/);
    t.run({ ...persuade, dice: win });
    expect(t.events('challenge-resolved').map((c) => c.result.kind)).toEqual(['opposed', 'opposed']);
    expect(t.character('cultist').resolve).toBeNull();
  });

  it('subsequent-challenges: a follow-up compares the next-highest dice of the roll just made, rolling nothing', () => {
    const t = debate('subsequent-challenges');
    t.refuse({ ...persuade, subsequent: true }, 'no-initial-challenge', /"Subsequent vs. Additional Challenges"/);
    t.run({ ...persuade, dice: win });
    // It rolls nothing: dice entered for it are refused.
    t.refuse({ ...persuade, subsequent: true, dice: win }, 'dice-pool');
    // No dice are handed in: a fresh roll would fail for want of dice.
    t.run({ ...persuade, subsequent: true, purpose: 'press the point' });
    const next = t.events('challenge-resolved').at(-1)!;
    expect(next.result.kind).toBe('subsequent');
    expect([next.result.actor.dice, next.result.reactor.dice]).toEqual([[6], [1]]);
    expect(next.result.outcome).toBe('success');
    expect(next.purpose).toBe('press the point');
    expect(next.notes.join(' ')).toMatch(/option nonViolentExtended = subsequent-challenges/);
    t.refuse({ ...persuade, subsequent: true }, 'no-dice-left');
    t.refuse({ ...persuade, skill: 'Longsword', subsequent: true }, 'subsequent-skill');
    // Another challenge in between breaks the chain.
    t.run({ type: 'interact', actor: 'cultist', target: 'aldric', skill: 'Magic', dice: { actor: [5, 4, 1], reactor: [3, 2] } });
    t.refuse({ ...persuade, subsequent: true }, 'no-initial-challenge');
    expect(replay(t.log).now).toEqual(t.now);
  });

  it('subsequent challenges belong to non-violent encounters', () => {
    const t = new Table([ALDRIC, CULTIST], { nonViolentExtended: 'subsequent-challenges' });
    t.run({ ...persuade, dice: win });
    t.refuse({ ...persuade, subsequent: true }, 'not-non-violent');
  });

  it('health-track: won interactions wear the target\'s resolve, 1 + the attribute it answers with; worn through, it yields', () => {
    const t = debate('health-track');
    t.refuse({ ...persuade, subsequent: true }, 'subsequent-not-used');
    t.run({ ...persuade, dice: win });
    expect(t.character('cultist').resolve).toEqual({ encounter: 1, worn: 1, size: 3, attribute: 'power', yielded: false });
    t.run({ ...persuade, dice: lose });
    expect(t.character('cultist').resolve?.worn).toBe(1);
    t.run({ ...persuade, dice: win });
    const [last] = t.run({ ...persuade, dice: win }).filter((e) => e.type === 'resolve-worn');
    expect(last).toMatchObject({ before: 2, after: 3, size: 3, yielded: true });
    expect(describeEvent(last!, t.now)).toEqual(['Cultist gives ground: resolve 3/3 worn (1 + Power; option nonViolentExtended = health-track).', 'Cultist yields to Aldric.']);
    expect(describeSnapshot(t.now).join('\n')).toMatch(/Cultist: .*resolve 3\/3 worn, yielded/);
    t.refuse({ ...persuade, dice: win }, 'yielded', /"Non-Violent Encounters"/);
    // The track belongs to the encounter.
    t.run({ type: 'end-encounter', actor: 'gm' });
    expect(t.character('cultist').resolve).toBeNull();
    expect(replay(t.log).now).toEqual(t.now);
  });

  it('health-track: the track is sized by the attribute used to answer, and only in non-violent encounters', () => {
    const t = debate('health-track');
    t.run({ ...persuade, reactorAttribute: 'knowledge', dice: win });
    expect(t.character('cultist').resolve).toMatchObject({ size: 2, attribute: 'knowledge', worn: 1 });
    const s = new Table([ALDRIC, CULTIST], { nonViolentExtended: 'health-track' });
    s.run({ ...persuade, dice: win });
    expect(s.character('cultist').resolve).toBeNull();
  });
});
