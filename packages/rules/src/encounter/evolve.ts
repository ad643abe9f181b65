import { START_CLOCK } from '../time';
import { knocksOut, statusForHits } from './injury';
import type { Combatant } from './combatant';
import type { EncounterEvent, EventBody } from './events';
import type { ChallengeResult } from '../challenge';
import { EMPTY_STATE, emptyTally, type CharacterState, type Combat, type EncounterState, type PastNode, type SuccessTally, type Snapshot } from './state';

/**
 * evolve(state, event) -> state: apply one event. Pure and total: it never rolls a die and never
 * refuses; every decision was made by `decide` and written into the event.
 */
export function evolve(state: EncounterState, event: EncounterEvent): EncounterState {
  if (event.seq !== state.sequence + 1) {
    throw new RangeError(`event #${event.seq} cannot follow event #${state.sequence}`);
  }
  const past = state.past ?? ROOT;
  if (event.type === 'undone' || event.type === 'redone') {
    const target = find(past, event.toSequence);
    if (!target) throw new RangeError(`event #${event.seq}: there is no event #${event.toSequence} to return to`);
    const redo = event.type === 'undone' ? [...state.redo, state.sequence] : state.redo.slice(0, -1);
    const node: PastNode = { sequence: event.seq, action: event.action, now: target.now, undoTo: target.undoTo, previous: past };
    return { sequence: event.seq, now: target.now, undoTo: target.undoTo, redo, past: node };
  }
  const now = applyEvent(state.now, event);
  const undoTo = event.action - 1;
  const node: PastNode = { sequence: event.seq, action: event.action, now, undoTo, previous: past };
  return { sequence: event.seq, now, undoTo, redo: [], past: node };
}

const ROOT: PastNode = { sequence: 0, action: 0, now: null, undoTo: null, previous: null };

/** The node of event `sequence`, walking back from the latest. */
export function find(node: PastNode | null, sequence: number): PastNode | undefined {
  for (let n = node; n; n = n.previous) {
    if (n.sequence === sequence) return n;
    if (n.sequence < sequence) return undefined;
  }
  return sequence === 0 ? ROOT : undefined;
}

/** Fold a whole log from the empty state. */
export function fold(events: readonly EncounterEvent[], from: EncounterState = EMPTY_STATE): EncounterState {
  let state = from;
  for (const e of events) state = evolve(state, e);
  return state;
}

function newCharacter(def: Combatant, now: Pick<Snapshot, 'options' | 'clock'>): CharacterState {
  const status = statusForHits(def, now.options, def.hits);
  return {
    def,
    hits: def.hits,
    status,
    conscious: !knocksOut(status),
    stabilized: false,
    relapse: false,
    outForScene: null,
    recoverFromScene: now.clock.scene,
    lastRecoveryScene: null,
    healLater: null,
    present: true,
    position: null,
    readiedSuccess: false,
    tally: emptyTally(now.clock.session),
    lastSessionTally: null,
    resolve: null,
  };
}

function setCharacter(now: Snapshot, id: string, change: Partial<CharacterState>): Snapshot {
  const c = now.characters[id];
  if (!c) return now;
  return { ...now, characters: { ...now.characters, [id]: { ...c, ...change } } };
}

function setCombat(now: Snapshot, change: (c: Combat) => Partial<Combat>): Snapshot {
  if (!now.combat) return now;
  return { ...now, combat: { ...now.combat, ...change(now.combat) } };
}

function without<T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = record;
  return rest;
}

/** Apply a domain event to the snapshot. */
export function applyEvent(before: Snapshot | null, event: EventBody): Snapshot {
  if (event.type === 'set-up') {
    const base = { options: event.options, clock: START_CLOCK };
    const characters: Record<string, CharacterState> = {};
    const banks: Record<string, { count: number; earned: { session: number; day: number; scene: number; encounter: null } }[]> = {};
    for (const def of event.characters) {
      characters[def.id] = newCharacter(def, base);
      if (def.criticals > 0) banks[def.id] = [{ count: def.criticals, earned: { session: 1, day: 1, scene: 1, encounter: null } }];
    }
    return {
      title: event.title,
      options: event.options,
      clock: START_CLOCK,
      betweenSessions: false,
      roster: event.characters.map((c) => c.id),
      characters,
      escalatedBy: null,
      combat: null,
      banks,
      usage: {},
      effects: [],
      nextEffectId: 1,
      lastChallenge: null,
    };
  }
  if (!before) throw new RangeError(`a "${event.type}" event needs a table that has been set up`);
  const now = before;
  switch (event.type) {
    case 'character-joined': {
      const existing = now.characters[event.character.id];
      if (existing) return setCharacter(now, event.character.id, { def: event.character, present: true });
      return {
        ...now,
        roster: now.roster.includes(event.character.id) ? now.roster : [...now.roster, event.character.id],
        characters: { ...now.characters, [event.character.id]: newCharacter(event.character, now) },
      };
    }
    case 'options-changed': {
      // Positions of the other form mean nothing once the table changes how it tracks distance.
      if (event.options.distance === now.options.distance) return { ...now, options: event.options };
      const characters = Object.fromEntries(Object.entries(now.characters).map(([id, c]) => [id, { ...c, position: null }]));
      return { ...now, options: event.options, characters };
    }
    case 'character-updated':
      // The encounter keeps its own tally of hits and status; the definition is what changes.
      return setCharacter(now, event.character.id, { def: event.character });
    case 'character-left': {
      const next = setCharacter(now, event.id, { present: false });
      return setCombat(next, (c) => ({ order: c.order.filter((id) => id !== event.id), index: Math.min(c.index, Math.max(0, c.order.filter((id) => id !== event.id).length - 1)) }));
    }
    case 'session-began': {
      const characters = Object.fromEntries(Object.entries(now.characters).map(([id, c]) => [id, { ...c, lastSessionTally: c.tally, tally: emptyTally(event.session) }]));
      return { ...now, clock: { ...now.clock, session: event.session }, betweenSessions: false, characters };
    }
    case 'session-ended':
      return { ...now, betweenSessions: true };
    case 'day-began':
      return { ...now, clock: { ...now.clock, day: event.day } };
    case 'scene-began':
      return { ...now, title: event.title ?? now.title, clock: { ...now.clock, scene: event.scene, stage: 'scene', peak: 'scene' } };
    case 'scene-ended':
      return now;
    case 'escalated': {
      const fresh = now.clock.stage === 'scene';
      return {
        ...now,
        clock: { ...now.clock, stage: event.to, encounter: event.encounter, peak: event.to },
        escalatedBy: event.by === 'gm' ? (fresh ? null : now.escalatedBy) : event.by,
      };
    }
    case 'de-escalated':
      return { ...now, clock: { ...now.clock, stage: event.to }, combat: event.to === 'violent' ? now.combat : null };
    case 'encounter-ended': {
      // Resolve tracks belong to the encounter they were worn in.
      const characters = Object.fromEntries(Object.entries(now.characters).map(([id, c]) => [id, c.resolve ? { ...c, resolve: null } : c]));
      return { ...now, clock: { ...now.clock, stage: 'scene', peak: 'scene' }, combat: null, escalatedBy: null, characters, lastChallenge: null };
    }
    case 'order-set':
      return {
        ...now,
        combat: {
          method: event.method,
          order: event.order,
          round: now.combat?.round ?? 0,
          index: now.combat?.index ?? 0,
          turn: now.combat?.turn ?? { actor: event.order[0] ?? '', moves: 0, actionUsed: false, ability: null },
          actedThisRound: now.combat?.actedThisRound ?? [],
          defenses: now.combat?.defenses ?? {},
          assists: now.combat?.assists ?? {},
          spentAhead: now.combat?.spentAhead ?? [],
          abilityUse: now.combat?.abilityUse ?? {},
        },
      };
    case 'order-changed':
      return setCombat(now, (c) => ({ order: event.order, index: Math.max(0, event.order.indexOf(c.turn.actor)) }));
    case 'round-began':
      return setCombat(now, () => ({ round: event.round, actedThisRound: [] }));
    case 'turn-began':
      return setCombat(now, (c) => ({
        index: event.index,
        turn: { actor: event.actor, moves: 0, actionUsed: event.actionSpent, ability: null },
        defenses: without(c.defenses, event.actor),
        spentAhead: c.spentAhead.filter((id) => id !== event.actor),
      }));
    case 'turn-skipped':
    case 'turn-ended':
    case 'round-ended':
      return now;
    case 'moved':
      return setCombat(event.to === undefined ? now : setCharacter(now, event.actor, { position: event.to }), (c) =>
        c.turn.actor === event.actor
          ? {
              turn: { ...c.turn, moves: c.turn.moves + 1, actionUsed: c.turn.actionUsed || event.usesAction },
              actedThisRound: c.actedThisRound.includes(event.actor) ? c.actedThisRound : [...c.actedThisRound, event.actor],
            }
          : {},
      );
    case 'action-taken': {
      return setCombat(now, (c) =>
        c.turn.actor === event.actor
          ? {
              turn: { ...c.turn, actionUsed: c.turn.actionUsed || event.usesAction },
              actedThisRound: c.actedThisRound.includes(event.actor) ? c.actedThisRound : [...c.actedThisRound, event.actor],
            }
          : { actedThisRound: c.actedThisRound.includes(event.actor) ? c.actedThisRound : [...c.actedThisRound, event.actor] },
      );
    }
    case 'ability-used':
      return setCombat(now, (c) => ({
        abilityUse: { ...c.abilityUse, [event.actor]: event.turnKey },
        turn: c.turn.actor === event.actor ? { ...c.turn, ability: event.ability } : c.turn,
      }));
    case 'challenge-resolved': {
      const c = now.characters[event.actor];
      const lastChallenge = {
        kind: event.kind,
        actor: event.actor,
        reactor: event.reactor,
        skill: event.skill,
        reactorSkill: event.reactorSkill,
        encounter: now.clock.stage === 'scene' ? null : now.clock.encounter,
        result: event.result,
      };
      const next = { ...now, lastChallenge };
      return c ? setCharacter(next, event.actor, { tally: counted(c.tally, event.result, now.options.developmentCountsOnlyClear) }) : next;
    }
    case 'resolve-worn':
      return setCharacter(now, event.target, { resolve: { encounter: event.encounter, worn: event.after, size: event.size, attribute: event.attribute, yielded: event.yielded } });
    case 'virtual-answered':
      return now;
    case 'hits-sustained':
      return setCharacter(now, event.target, { hits: event.after });
    case 'hits-removed':
      return setCharacter(now, event.target, { hits: event.after });
    case 'status-changed': {
      // A stabilized character stays stable only while it stays Dying.
      return setCharacter(now, event.target, { status: event.to, stabilized: false });
    }
    case 'consciousness-changed':
      return setCharacter(now, event.target, { conscious: event.conscious });
    case 'stabilized':
      return setCharacter(now, event.target, { stabilized: true });
    case 'died':
      return setCharacter(now, event.target, { status: 'dead', conscious: false });
    case 'recovery-set': {
      const change: { -readonly [K in keyof CharacterState]?: CharacterState[K] } = {};
      if (event.recoverFromScene !== undefined) change.recoverFromScene = event.recoverFromScene;
      if (event.lastRecoveryScene !== undefined) change.lastRecoveryScene = event.lastRecoveryScene;
      if (event.outForScene !== undefined) change.outForScene = event.outForScene;
      if (event.relapse !== undefined) change.relapse = event.relapse;
      if (event.healLater !== undefined) change.healLater = event.healLater;
      return setCharacter(now, event.target, change);
    }
    case 'criticals-banked': {
      if (event.count - event.lost <= 0) return now;
      const entries = now.banks[event.owner] ?? [];
      return { ...now, banks: { ...now.banks, [event.owner]: [...entries, { count: event.count - event.lost, earned: event.earned }] } };
    }
    case 'criticals-spent': {
      const spent = { ...now, banks: { ...now.banks, [event.owner]: take(now.banks[event.owner] ?? [], event.count) } };
      return event.readies ? setCharacter(spent, event.readies, { readiedSuccess: true }) : spent;
    }
    case 'readied-success-used':
      return setCharacter(now, event.actor, { readiedSuccess: false });
    case 'criticals-expired':
      return { ...now, banks: { ...now.banks, [event.owner]: take(now.banks[event.owner] ?? [], event.count) } };
    case 'criticals-given': {
      const from = now.banks[event.from] ?? [];
      const moved = takeEntries(from, event.count);
      return { ...now, banks: { ...now.banks, [event.from]: take(from, event.count), [event.to]: [...(now.banks[event.to] ?? []), ...moved] } };
    }
    case 'usage-counted':
      return { ...now, usage: { ...now.usage, [event.key]: (now.usage[event.key] ?? 0) + 1 } };
    case 'defense-declared':
      return setCombat(now, (c) => ({ defenses: { ...c.defenses, [event.actor]: event.defense } }));
    case 'defense-ended':
      return setCombat(now, (c) => ({ defenses: without(c.defenses, event.actor) }));
    case 'assist-declared':
      return setCombat(now, (c) => ({ assists: { ...c.assists, [event.actor]: event.primary } }));
    case 'assist-spent':
      return setCombat(now, (c) => ({ assists: without(c.assists, event.actor) }));
    case 'action-spent-ahead':
      return setCombat(now, (c) => ({ spentAhead: c.spentAhead.includes(event.actor) ? c.spentAhead : [...c.spentAhead, event.actor] }));
    case 'effect-started':
      return { ...now, effects: [...now.effects, event.effect], nextEffectId: Math.max(now.nextEffectId, event.effect.id + 1) };
    case 'effect-maintained':
      return { ...now, effects: now.effects.map((e) => (e.id === event.id ? { ...e, maintainedRound: event.round } : e)) };
    case 'effect-ended':
      return { ...now, effects: now.effects.filter((e) => e.id !== event.id) };
    case 'undone':
    case 'redone':
      // Handled by evolve with the log's past; on a bare snapshot they change nothing.
      return now;
  }
}

/**
 * personae-v4-srd-playing.txt "Clear Success, Glancing Success, and Steering": "by default, characters
 * may only mark clear successes when tracking successes and failures towards the achievement of
 * development points" (option developmentCountsOnlyClear). A tie is neither.
 */
function counted(tally: SuccessTally, result: ChallengeResult, onlyClear: boolean): SuccessTally {
  if (result.outcome === 'failure') return { ...tally, failures: tally.failures + 1 };
  if (result.outcome !== 'success') return tally;
  if (result.grade === 'glancing' && onlyClear) return { ...tally, uncounted: tally.uncounted + 1 };
  return { ...tally, successes: tally.successes + 1 };
}

/** Spend or expire `count` criticals, oldest first. */
function take(entries: readonly { count: number; earned: BankStamp }[], count: number) {
  const out: { count: number; earned: BankStamp }[] = [];
  let left = count;
  for (const e of entries) {
    const used = Math.min(left, e.count);
    left -= used;
    if (e.count - used > 0) out.push({ count: e.count - used, earned: e.earned });
  }
  return out;
}

function takeEntries(entries: readonly { count: number; earned: BankStamp }[], count: number) {
  const out: { count: number; earned: BankStamp }[] = [];
  let left = count;
  for (const e of entries) {
    const used = Math.min(left, e.count);
    left -= used;
    if (used > 0) out.push({ count: used, earned: e.earned });
  }
  return out;
}

type BankStamp = { session: number; day: number; scene: number; encounter: number | null };
