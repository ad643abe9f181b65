import { describe, expect, it } from 'vitest';
import { TableCommandSchema, entryLines, presetOptions, tableOptions } from '@personae/rules';
import { attributeLimit, budgets, checkDraft, newDraft, priorityProblem, problemsAt, spreadAttributes, stepOfPath, type Draft } from '../src/lib/draft';
import { EMPTY_DESTINATION, actsOutOfTurn, moveDestination, omittedText, positionText, resolveText } from '../src/lib/encounter';
import { percent } from '../src/lib/format';
import { emptyRoller, parseGiven, resolveSide, rollCommand, rollerOdds, skillsOf, type RollerCharacter } from '../src/lib/roller';
import { parseRoute } from '../src/lib/route';
import { loadSheet } from '@personae/rules/character/load';
import { combatantFromSheet, composeSide, skillUse } from '@personae/rules';
import { readFileSync } from 'node:fs';

const core = presetOptions('core-2011');

function legalDraft(): Draft {
  const d = newDraft(20);
  d.sheet.name = 'Ann Vell';
  d.sheet.concept = 'River Scout';
  d.priority = { competence: 'first', prowess: 'first', cunning: 'second', power: 'second', knowledge: 'third', stature: 'handicap' };
  d.sheet.attributes = { competence: 6, prowess: 5, cunning: 4, power: 2, knowledge: 2, stature: 1 };
  d.sheet.skills = [{ name: 'Spear', attribute: 'prowess', dice: 4 }];
  return d;
}

describe('the builder model', () => {
  it('a legal draft passes every check and counts what is used against each limit', () => {
    const check = checkDraft(legalDraft(), core);
    expect(check.report?.errors).toEqual([]);
    expect(check.valid).toBe(true);
    const b = Object.fromEntries(budgets(legalDraft(), core).map((x) => [x.key, x.text]));
    expect(b.skills).toBe('1 of 6 skills');
    expect(b.prowess).toBe('2 of 15 Prowess Pool dice');
    expect(b.points).toBe('20 of 20 creation points');
  });

  it('explains an attribute above its priority cap where the player is looking', () => {
    const d = legalDraft();
    d.priority = { ...d.priority, stature: 'third', knowledge: 'handicap' };
    d.sheet.attributes = { competence: 6, prowess: 5, cunning: 4, power: 0, knowledge: 0, stature: 5 };
    expect(attributeLimit(d, 'stature').text).toMatch(/^Stature can be at most 4 as a Third priority/);
    const at = problemsAt(checkDraft(d, core), 'attributes.stature');
    expect(at.map((p) => p.message).join(' ')).toContain('a Third-priority attribute can be at most 4 with 20 creation points');
    expect(at[0]?.source).toContain('personae-core-2011.txt');
  });

  it('holds the checks back while the order of importance is incomplete, and says why', () => {
    const d = legalDraft();
    d.priority = { ...d.priority, cunning: 'first' };
    expect(priorityProblem(d.priority)).toContain('First 3 of 2');
    const check = checkDraft(d, core);
    expect(check.report).toBeNull();
    expect(check.valid).toBe(false);
  });

  it('sorts each field path into its creation step', () => {
    expect(stepOfPath('creationPoints')).toBe('concept');
    expect(stepOfPath('attributes.stature')).toBe('attributes');
    expect(stepOfPath('skills[2].dice')).toBe('traits');
    expect(stepOfPath('skills[0].weapon')).toBe('gear');
    expect(stepOfPath('gear[1].name')).toBe('gear');
    expect(stepOfPath('history[0]')).toBe('review');
  });
});

describe('spending the remaining creation points for the player', () => {
  const ranked = (cp: number): Draft => {
    const d = newDraft(cp);
    d.priority = { competence: 'first', prowess: 'first', cunning: 'second', power: 'second', stature: 'third', knowledge: 'handicap' };
    return d;
  };

  it('gives every attribute a share, none left at 0, and the result is a legal allocation', () => {
    const d = ranked(20);
    d.sheet.attributes = spreadAttributes(d);
    expect(Object.values(d.sheet.attributes).reduce((a, b) => a + b, 0)).toBe(20);
    for (const v of Object.values(d.sheet.attributes)) expect(v).toBeGreaterThan(0);
    expect(d.sheet.attributes.stature).toBeGreaterThan(0);
    expect(problemsAt(checkDraft(d, core), 'attributes')).toEqual([]);
    for (const a of ['competence', 'prowess', 'cunning', 'power', 'stature', 'knowledge'] as const) expect(problemsAt(checkDraft(d, core), `attributes.${a}`)).toEqual([]);
  });

  it('keeps what the player set and fills only the attributes still at 0, within the caps', () => {
    const d = ranked(30);
    d.sheet.attributes.competence = 12;
    d.sheet.attributes.stature = 1;
    const v = spreadAttributes(d);
    expect(v.competence).toBe(12);
    expect(v.stature).toBe(1);
    expect(Object.values(v).reduce((a, b) => a + b, 0)).toBe(30);
    expect(v.knowledge).toBeLessThanOrEqual(v.stature);
    expect(v.cunning).toBeLessThanOrEqual(9);
  });

  it('stops when every open attribute is at its ceiling rather than break a cap', () => {
    const d = ranked(20);
    d.sheet.attributes = { competence: 1, prowess: 1, cunning: 1, power: 1, stature: 1, knowledge: 0 };
    const v = spreadAttributes(d);
    // Knowledge (Handicap) may not pass Stature (Third, 1): one point goes there and the rest stays unspent.
    expect(v.knowledge).toBe(1);
    expect(Object.values(v).reduce((a, b) => a + b, 0)).toBe(6);
  });
});

describe('the roller model', () => {
  const text = readFileSync(new URL('../../../examples/characters/dwarf-iron-constitution.yaml', import.meta.url), 'utf8');
  const loaded = loadSheet(text, 'dwarf.yaml');
  if (!loaded.ok) throw new Error(loaded.error.message);
  const dwarf: RollerCharacter = { id: 'brogan', name: loaded.sheet.name, sheet: loaded.sheet, penalty: { dice: 1, status: 'Injured' } };

  it('turns a character, skill, attribute and labelled circumstances into the roll command the table accepts', () => {
    const input = emptyRoller();
    const skill = loaded.sheet.skills[0]!;
    input.actor = { ...input.actor, character: 'brogan', skill: skill.name, attribute: skill.attribute, modifiers: [{ value: 2, source: 'high ground' }], assistants: ['Ann'] };
    input.reactor = { ...input.reactor, name: 'Bandit', dice: 3, bonus: 2 };
    const actor = resolveSide(input.actor, [dwarf], core, 'actor');
    const reactor = resolveSide(input.reactor, [dwarf], core, 'reactor');
    expect(actor.dice).toBe(skill.dice - 1);
    expect(actor.modifiers).toEqual([
      { value: loaded.sheet.attributes[skill.attribute], source: expect.any(String) },
      { value: 2, source: 'high ground' },
      { value: 1, source: 'assist (Ann)' },
    ]);
    const { command, dice } = rollCommand(input, actor, reactor, null);
    expect(dice).toEqual({});
    expect(TableCommandSchema.safeParse(command).success).toBe(true);
    // The character issuing it is named, so the table counts it in the character's development tally.
    expect(command).toMatchObject({ character: 'brogan' });
    const odds = rollerOdds(actor, reactor, 0, core);
    expect(odds.odds.success + odds.odds.failure + odds.odds.fullTie).toBeCloseTo(1, 9);
    expect(odds.actorSweep.map((p) => p.dice)).toEqual([actor.dice - 1, actor.dice, actor.dice + 1]);
    expect(odds.actorSweep[0]!.success).toBeLessThan(odds.actorSweep[2]!.success);
    expect(odds.reactorSweep[0]!.success).toBeGreaterThan(odds.reactorSweep[2]!.success);
  });

  it('builds a character side with the rules function the encounter uses: a Quality counts, an ability out of scope is said and left out', () => {
    const sheet = { ...loaded.sheet, specialAbilities: [...loaded.sheet.specialAbilities, { name: 'Stubborn', conditional: [], culture: false, quality: true, upgrades: 0, effect: { type: 'bonus-result' as const, amount: 1 } }] };
    const character: RollerCharacter = { ...dwarf, sheet, penalty: null };
    const input = emptyRoller();
    input.actor = { ...input.actor, character: 'brogan', skill: 'Shield Wall', attribute: 'prowess', ability: 'Shield Bash' };
    const side = resolveSide(input.actor, [character], core, 'actor');
    const def = combatantFromSheet(sheet, core);
    const encounter = composeSide({ def, options: core, penaltyDice: [], granted: [] }, { skill: skillUse(def, 'Shield Wall', 'prowess'), attribute: 'prowess', role: 'issue', kind: 'other' }, 'abilities');
    expect(side.modifiers).toEqual(encounter.spec.modifiers);
    expect(side.modifiers).toContainEqual({ value: 1, source: 'Stubborn (Quality)' });
    expect(side.dice).toBe(encounter.spec.pool.base);
    expect(side.notes.join(' ')).toMatch(/Shield Bash does not apply/);
  });

  it('assistants follow the table option: a die each under the web revision', () => {
    const input = emptyRoller();
    input.actor = { ...input.actor, dice: 3, assistants: ['Ann', 'Bo'] };
    const side = resolveSide(input.actor, [], tableOptions('core-2011', { assist: 'web' }), 'actor');
    expect(side.dice).toBe(5);
    expect(side.modifier).toBe(0);
  });

  it('an unopposed roll names its difficulty and checks the entered dice', () => {
    const input = emptyRoller();
    input.mode = 'unopposed';
    input.difficulty = 5;
    input.actor = { ...input.actor, dice: 3, given: '9 4' };
    const actor = resolveSide(input.actor, [], core, 'actor');
    expect(actor.givenProblem).toBe('2 dice were entered; this pool rolls 3.');
    expect(parseGiven('9, 4 11', 3).problem).toBe('"11" is not a d10 result (1 to 10).');
    const ok = resolveSide({ ...input.actor, given: '9 4 1' }, [], core, 'actor');
    const { command, dice } = rollCommand(input, ok, null, [3, 3]);
    expect(command).toMatchObject({ type: 'roll', difficulty: 5, actor: { dice: 3 } });
    // The typed dice go beside the command, in the pools they fill.
    expect(dice).toEqual({ actor: [9, 4, 1], difficulty: [3, 3] });
    expect(TableCommandSchema.safeParse(command).success).toBe(true);
  });
});

describe('the encounter tracker model', () => {
  it('offers the challenges that follow at once, and an obstacle\'s, out of turn (personae-core-2011.txt "What Special Abilities Can Do", "Obstacles")', () => {
    const taunt = { kind: 'taunt' as const, actor: 'cultist', reactor: 'kestrel' };
    const cultist = { id: 'cultist', obstacle: false };
    expect(actsOutOfTurn(taunt, cultist, 'attack', 'kestrel')).toBe(true);
    // A Taunt owes an attack on the taunter, nothing else.
    expect(actsOutOfTurn(taunt, cultist, 'interact', 'kestrel')).toBe(false);
    expect(actsOutOfTurn(taunt, cultist, 'attack', 'ann')).toBe(false);
    expect(actsOutOfTurn(taunt, { id: 'kestrel', obstacle: false }, 'attack', 'cultist')).toBe(false);
    const misdirection = { kind: 'misdirection' as const, actor: 'kestrel', reactor: 'cultist' };
    expect(actsOutOfTurn(misdirection, { id: 'kestrel', obstacle: false }, 'interact', 'cultist')).toBe(true);
    expect(actsOutOfTurn(misdirection, { id: 'kestrel', obstacle: false }, 'move', 'cultist')).toBe(false);
    expect(actsOutOfTurn(null, { id: 'storm', obstacle: true }, 'power', 'kestrel')).toBe(true);
    expect(actsOutOfTurn(null, cultist, 'attack', 'kestrel')).toBe(false);
  });

  const moveCommand = (to: unknown) => ({ type: 'encounter', hidden: false, command: { type: 'move', actor: 'kestrel', ...(to === undefined ? {} : { to }) } });

  it('builds the destination of a move by option distance, in a form the table command accepts', () => {
    expect(moveDestination('relative', { ...EMPTY_DESTINATION, term: '  very near ' })).toEqual({ to: 'very near' });
    expect(moveDestination('relative', { ...EMPTY_DESTINATION, term: '   ' })).toEqual({});
    expect(moveDestination('relative', { term: '', x: '3', y: '4' })).toEqual({});
    expect(moveDestination('grid', { term: 'close', x: '3', y: '-4' })).toEqual({ to: { x: 3, y: -4 } });
    expect(moveDestination('grid', EMPTY_DESTINATION)).toEqual({});
    for (const input of [{ ...EMPTY_DESTINATION, term: 'very near' }, { term: '', x: '0', y: '12' }]) {
      const to = moveDestination(input.x ? 'grid' : 'relative', input);
      expect('to' in to && TableCommandSchema.safeParse(moveCommand(to.to)).success).toBe(true);
    }
  });

  it('explains a grid destination the engine would refuse before sending', () => {
    expect(moveDestination('grid', { term: '', x: '3', y: '' })).toEqual({ problem: 'A square of the grid needs both x and y.' });
    expect(moveDestination('grid', { term: '', x: '1.5', y: '2' })).toEqual({ problem: 'x and y are whole numbers.' });
    expect(moveDestination('grid', { term: '', x: '20000', y: '2' })).toMatchObject({ problem: expect.stringContaining('between') });
    expect(TableCommandSchema.safeParse(moveCommand({ x: 20000, y: 2 })).success).toBe(false);
  });

  it('puts positions, resolve tracks and a shortened log in words', () => {
    expect(positionText('pretty far')).toBe('pretty far');
    expect(positionText({ x: 2, y: -1 })).toBe('(2, -1)');
    expect(positionText(null)).toBe('');
    const track = { encounter: 1, worn: 1, size: 3, attribute: 'power' as const, yielded: false };
    expect(resolveText(track)).toBe('2 of 3 left');
    expect(resolveText({ ...track, worn: 3, yielded: true })).toBe('yielded (0 of 3 left)');
    expect(resolveText(null)).toBe('untouched');
    expect(omittedText(0)).toBe('');
    expect(omittedText(1)).toBe('1 older entry not shown');
    expect(omittedText(42)).toBe('42 older entries not shown');
  });
});

describe('routes and formatting', () => {
  it('reads the pages and the secret in the fragment', () => {
    expect(parseRoute('/', '')).toEqual({ page: 'start' });
    expect(parseRoute('/join/t_abc', '#invite=in_x')).toEqual({ page: 'join', tableId: 't_abc', invite: 'in_x' });
    expect(parseRoute('/table/t_abc', '#token=gm_y')).toEqual({ page: 'table', tableId: 't_abc', token: 'gm_y', watch: false });
    expect(parseRoute('/watch/t_abc', '#token=ob_z')).toMatchObject({ page: 'table', watch: true });
    expect(parseRoute('/nope/a/b', '')).toMatchObject({ page: 'not-found' });
  });
  it('never shows a possible outcome as 0% or a possible failure as 100%', () => {
    expect(percent(0.00001)).toBe('<0.1%');
    expect(percent(0.99999)).toBe('>99.9%');
    expect(percent(0.5)).toBe('50%');
    expect(percent(0.0523)).toBe('5.2%');
    expect(percent(0)).toBe('0%');
  });
});

describe('the log as Markdown', () => {
  it('writes talk as quotations, whispers marked, and rolls with outcome and dice; formatting characters print as typed', async () => {
    const { logMarkdown } = await import('../src/ui/log-markdown');
    const { personaeTable } = await import('@personae/rules');
    const table = await playedTable();
    const run = table.run;
    const gm = { role: 'gm' as const, participantId: 'p-gm' };
    run({ role: 'player', participantId: 'p-ann' }, { type: 'say', text: 'I *pocket* the key', to: 'gm' });
    run(gm, { type: 'roll', purpose: 'Climb the wall', actor: { name: 'Kestrel', dice: 3, modifiers: [] }, difficulty: 'normal' });
    const view = personaeTable.viewState(table.state, gm);
    const md = logMarkdown({
      tableName: 'The #1 Road',
      log: view.log,
      participants: [
        { id: 'p-gm', role: 'gm', displayName: 'Mara' },
        { id: 'p-ann', role: 'player', displayName: 'Ann' },
      ],
      graded: false,
      exportedAt: new Date('2026-11-22T21:00:00Z'),
    });
    expect(md.split('\n').slice(0, 3)).toEqual(['# The \\#1 Road', '', "The table's log as of 2026-11-22 21:00 UTC, 2 entries."]);
    expect(md).toContain('**Ann** to the GM (whisper), 20:15:\n\n> I \\*pocket\\* the key');
    expect(md).toContain('### #2 · 20:15 · Mara (GM)');
    expect(md).toContain('*Climb the wall*');
    expect(md).toMatch(/\*\*Kestrel: (Success|Failure|Full tie)\*\*/);
    expect(md).toMatch(/- Kestrel: \d+(, \d+){2}\n/);
  });
});

describe('actions already used this turn', () => {
  it('says why an action or a move is not available, and lets a first move and criticals through', async () => {
    const { usedUp } = await import('../src/ui/Encounter');
    expect(usedUp('attack', 'Kestrel', { moves: 0, actionUsed: false })).toBeNull();
    expect(usedUp('attack', 'Kestrel', null)).toBeNull();
    expect(usedUp('attack', 'Kestrel', { moves: 0, actionUsed: true })).toBe("Kestrel has already used this turn's action; a move is still possible, then end the turn.");
    expect(usedUp('move', 'Kestrel', { moves: 0, actionUsed: true })).toBeNull();
    expect(usedUp('move', 'Kestrel', { moves: 1, actionUsed: true })).toMatch(/nothing is left but to end the turn/);
    expect(usedUp('spend-criticals', 'Kestrel', { moves: 1, actionUsed: true })).toBeNull();
  });
});

describe('generated portraits', () => {
  it('take the initials and a colour from the name, the same every time', async () => {
    const { avatarOf } = await import('../src/ui/Avatar');
    expect(avatarOf('Kestrel').initials).toBe('KE');
    expect(avatarOf('Ann of the Reeds').initials).toBe('AR');
    expect(avatarOf('Kestrel')).toEqual(avatarOf('Kestrel'));
    expect(avatarOf('Kestrel').hue).not.toBe(avatarOf('Grask').hue);
    expect(avatarOf('   ').initials).toBe('?');
  });
});

describe('table options in words', () => {
  it('puts every option in exactly one group and names each in words', async () => {
    const { OPTION_GROUPS, OPTION_LABEL } = await import('../src/lib/option-labels');
    const { OPTION_DEFINITIONS } = await import('@personae/rules');
    const grouped = OPTION_GROUPS.flatMap((g) => g.options);
    expect([...grouped].sort()).toEqual(Object.keys(OPTION_DEFINITIONS).sort());
    expect(new Set(grouped).size).toBe(grouped.length);
    for (const n of grouped) expect(OPTION_LABEL[n]).toMatch(/^[A-Z]/);
  });
});

describe('undo in the log', () => {
  it('marks what an undo took back, previews the action before it (never the undo line), and a redo restores', async () => {
    const { takenBack, undoPreview } = await import('../src/lib/undo');
    const { personaeTable } = await import('@personae/rules');
    const { seededDice } = await import('@personae/dice');
    const sheetOf = (file: string) => {
      const l = loadSheet(readFileSync(new URL(`../../../examples/characters/${file}`, import.meta.url), 'utf8'), file);
      if (!l.ok) throw new Error(l.error.message);
      return JSON.parse(JSON.stringify(l.sheet)) as Record<string, unknown>;
    };
    let state = personaeTable.initialState();
    let minute = 0;
    const log = () => personaeTable.viewState(state, { role: 'gm', participantId: 'p-gm' }).log;
    const run = (raw: Record<string, unknown>) => {
      const parsed = personaeTable.parseCommand(raw.type === 'encounter' ? { ...raw, seen: state.seq } : raw);
      if (!parsed.ok) throw new Error(parsed.error.message);
      const now = `2026-11-22T20:${String(minute++).padStart(2, '0')}:00.000Z`;
      for (const e of personaeTable.decide(state, parsed.command, { actor: { role: 'gm', participantId: 'p-gm' }, dice: seededDice(3), now })) state = personaeTable.evolve(state, e);
    };
    run({ type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') });
    run({ type: 'add-character', sheet: exampleSheet('merchant-privateer-scoundrel.yaml') });
    run({ type: 'encounter', command: { type: 'escalate', actor: 'gm', to: 'non-violent' } });
    const calm = log().at(-1)!.seq;
    run({ type: 'encounter', command: { type: 'escalate', actor: 'gm', to: 'violent' } });
    const violent = log().filter((e) => e.seq > calm).map((e) => e.seq);
    expect(violent.length).toBeGreaterThan(1);
    expect(undoPreview(log()).map((e) => e.seq)).toEqual(violent);

    run({ type: 'encounter', command: { type: 'undo', actor: 'gm' } });
    const undo = log().at(-1)!;
    expect(undo.undo).toEqual({ kind: 'undo', to: calm });
    expect([...takenBack(log())]).toEqual(violent.map((seq) => [seq, undo.seq]));
    expect(undoPreview(log()).map((e) => e.seq)).toEqual([calm]);

    run({ type: 'encounter', command: { type: 'redo', actor: 'gm' } });
    expect(log().at(-1)!.undo).toEqual({ kind: 'redo', to: violent.at(-1) });
    expect(takenBack(log()).size).toBe(0);
  });
});

describe('the log as a story', () => {
  it('tells a played table in sentences, keeps the rules\' lines as working, and folds entries another one tells', async () => {
    const { foldedEntries, storyOf, plurals } = await import('../src/lib/story');
    const { personaeTable } = await import('@personae/rules');
    const { seededDice } = await import('@personae/dice');
    const sheetOf = (file: string) => {
      const l = loadSheet(readFileSync(new URL(`../../../examples/characters/${file}`, import.meta.url), 'utf8'), file);
      if (!l.ok) throw new Error(l.error.message);
      return JSON.parse(JSON.stringify(l.sheet)) as Record<string, unknown>;
    };
    let state = personaeTable.initialState();
    const gm = { role: 'gm' as const, participantId: 'p-gm' };
    const log = () => personaeTable.viewState(state, gm).log;
    const run = (raw: Record<string, unknown>) => {
      const parsed = personaeTable.parseCommand(raw.type === 'encounter' ? { ...raw, seen: state.seq } : raw);
      if (!parsed.ok) throw new Error(parsed.error.message);
      for (const e of personaeTable.decide(state, parsed.command, { actor: gm, dice: seededDice(5), now: '2026-11-22T20:15:00.000Z' })) state = personaeTable.evolve(state, e);
    };
    run({ type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') });
    run({ type: 'add-character', sheet: exampleSheet('merchant-privateer-scoundrel.yaml') });
    run({ type: 'encounter', command: { type: 'escalate', actor: 'gm', to: 'non-violent' } });
    run({ type: 'encounter', command: { type: 'escalate', actor: 'gm', to: 'violent' } });
    const now = state.encounter.now!;
    const [first, second] = now.combat!.order;
    run({ type: 'encounter', command: { type: 'attack', actor: first, target: second } });
    run({ type: 'encounter', command: { type: 'end-session', actor: 'gm' } });
    run({ type: 'encounter', command: { type: 'begin-session', actor: 'gm' } });

    const entries = log();
    const stories = entries.map((e) => storyOf(e, { tableName: 'The Salt Road' }));
    for (const [i, s] of stories.entries()) {
      expect(s.text, entryLines(entries[i]!).join(' / ')).not.toMatch(/==|--|\(s\)|\(es\)|option \w+ =| -> /);
      expect(s.text).toMatch(/^[A-Z].*[.!]$/s);
    }
    const texts = stories.map((s) => s.text);
    const names = Object.values(now.characters).map((c) => c.def.name);
    expect(texts).toContain(`The story of The Salt Road begins with ${names[0]}.`);
    expect(storyOf({ ...entries[0]!, lines: ['Table options: preset srd-v4.'] }).text).toBe('The table plays by Personae v4 SRD.');
    expect(texts).toContain('Round 1 begins.');
    expect(texts.some((t) => /^Attack Challenge: .+ uses .+ to .+\. (It fails|It succeeds|A glancing success)/.test(t))).toBe(true);
    // The action order says who acts first; how it was decided (with the option) is the working.
    const order = stories[entries.findIndex((e) => entryLines(e)[0]!.startsWith('Action order'))]!;
    expect(order.text).toMatch(/acts first, then/);
    expect(order.working.join('\n')).toContain('option actionOrder');

    const folded = foldedEntries(entries);
    const announced = entries.find((e) => entryLines(e)[0] === `${now.characters[first!]!.def.name} attacks ${now.characters[second!]!.def.name}.`)!;
    expect(folded.get(announced.seq)).toBe(announced.seq + 1);
    expect(entries.find((e) => e.seq === announced.seq + 1)!.result).toBeDefined();
    // The old scene ends only because the next session begins: the story says the session begins.
    const sceneEnd = entries.find((e) => entryLines(e)[0] === 'Scene 1 ends.')!;
    expect(entryLines(entries.find((e) => e.seq === sceneEnd.seq + 1)!)[0]).toBe('Session 2 begins.');
    expect(folded.has(sceneEnd.seq)).toBe(true);
    expect(plurals('1 hit(s), 2 critical(s), 1 success(es)')).toBe('1 hit, 2 criticals, 1 success');
  });
});

describe('the roller picks the attribute an attack with a weapon skill adds (option attackAttribute), as the encounter does', () => {
  it('Spear with Cunning on the sheet rolls with Stature under by-weapon, with Cunning under skill', () => {
    const d = legalDraft();
    d.sheet.skills = [{ name: 'Spear', attribute: 'cunning', dice: 3, weapon: 'Spear' }];
    d.sheet.gear = [{ type: 'weapon', name: 'Spear', size: 'two-handed', range: 'melee', group: 'polearms' }];
    const byWeapon = skillsOf(d.sheet, core).find((k) => k.name === 'Spear')!;
    expect(byWeapon.attribute).toBe('stature');
    expect(byWeapon.attackNote).toMatch(/add Stature, not the skill's Cunning/);
    expect(skillsOf(d.sheet, tableOptions('core-2011', { attackAttribute: 'skill' })).find((k) => k.name === 'Spear')!.attribute).toBe('cunning');
    // Without the table's options (a sheet on its own) the sheet's attribute is shown.
    expect(skillsOf(d.sheet).find((k) => k.name === 'Spear')!.attribute).toBe('cunning');
  });
});


describe('odds of an encounter action in the browser', () => {
  it("give the GM the library's odds, and a player no odds (never an error) for an action on a character hidden from them", async () => {
    const { personaeTable } = await import('@personae/rules');
    const { actionOdds } = await import('../src/lib/choice-odds');
    const table = await playedTable();
    const run = table.run;
    const gm = { role: 'gm' as const, participantId: 'p-gm' };
    const ann = { role: 'player' as const, participantId: 'p-ann' };
    run(ann, { type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') });
    run(gm, { type: 'add-character', sheet: exampleSheet('merchant-privateer-scoundrel.yaml'), hidden: true });
    const [dwarf, merchant] = Object.keys(table.state.characters) as [string, string];
    run(ann, { type: 'encounter', command: { type: 'escalate', actor: dwarf, to: 'non-violent' } });
    const command = { type: 'interact', actor: dwarf, target: merchant, skill: 'Stonecraft' };
    const asGm = actionOdds(personaeTable.viewState(table.state, gm), command, [], () => '');
    expect(asGm?.declared.ok).toBe(true);
    const asAnn = actionOdds(personaeTable.viewState(table.state, ann), command, ['Stonecraft', 'Warhammer'], () => '');
    expect(asAnn?.declared.ok).toBe(false);
    expect(asAnn?.bySkill.size).toBe(0);
  });

  it("count a chosen ability's reroll, and offer the other choices with their chances", async () => {
    const { personaeTable } = await import('@personae/rules');
    const { actionOdds } = await import('../src/lib/choice-odds');
    const table = await playedTable();
    const gm = { role: 'gm' as const, participantId: 'p-gm' };
    table.run(gm, { type: 'add-character', sheet: exampleSheet('post-civil-war-entrepreneur.yaml') });
    table.run(gm, { type: 'add-character', sheet: exampleSheet('dwarf-iron-constitution.yaml') });
    const [trader, dwarf] = Object.keys(table.state.characters) as [string, string];
    table.run(gm, { type: 'encounter', command: { type: 'escalate', actor: trader, to: 'non-violent' } });
    const view = personaeTable.viewState(table.state, gm);
    const haggle = { type: 'interact', actor: trader, target: dwarf, skill: 'Haggle' };
    const odds = actionOdds(view, { ...haggle, abilities: ['Card Sharp'] }, [], () => '');
    const plain = actionOdds(view, haggle, [], () => '');
    if (!odds?.declared.ok || !plain?.declared.ok) throw new Error('no odds');
    // Card Sharp rerolls one die below the highest, keeping the better (personae-core-2011.txt "What Special Abilities Can Do"):
    // its chance is above the plain pools', and taking it out gives the plain chance back.
    expect(odds.declared.odds.success).toBeGreaterThan(plain.declared.odds.success);
    expect(odds.without).toEqual([expect.objectContaining({ label: 'without Card Sharp', odds: plain.declared })]);
    expect(plain.with).toContainEqual(expect.objectContaining({ label: 'with Card Sharp', odds: odds.declared }));
  });
});

/** A Personae table played by commands, with seeded dice at a fixed time. */
async function playedTable() {
  const { personaeTable } = await import('@personae/rules');
  const { seededDice } = await import('@personae/dice');
  const table = {
    state: personaeTable.initialState(),
    run(actor: { role: 'gm' | 'player'; participantId: string }, raw: unknown) {
      const parsed = personaeTable.parseCommand(raw);
      if (!parsed.ok) throw new Error(parsed.error.message);
      for (const e of personaeTable.decide(table.state, parsed.command, { actor, dice: seededDice(3), now: '2026-11-22T20:15:00.000Z' })) table.state = personaeTable.evolve(table.state, e);
    },
  };
  return table;
}

/** A character sheet from examples/characters, as plain JSON (what a client sends). */
function exampleSheet(file: string): Record<string, unknown> {
  const r = loadSheet(readFileSync(new URL(`../../../examples/characters/${file}`, import.meta.url), 'utf8'), file);
  if (!r.ok) throw new Error(r.error.message);
  return JSON.parse(JSON.stringify(r.sheet));
}
