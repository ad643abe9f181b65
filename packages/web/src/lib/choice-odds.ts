import { EFFECTS, declaredChallengeOdds, type DeclaredOdds, type EncounterState, type TableView } from './rules';

/**
 * Odds for the choices a player makes before an encounter action: the chance of the action as declared,
 * and without each choice that changes it (criticals spent before rolling, each assistant, each special
 * ability), computed by the rules library on the encounter as this viewer sees it. When a character the
 * action involves is hidden from the viewer the library cannot build its side, and says so.
 */

/** The encounter as the view shows it, for deciding an action ahead without changing anything. */
export function encounterOf(view: TableView): EncounterState | null {
  if (!view.scene) return null;
  const characters = Object.fromEntries(view.characters.filter((c) => c.play?.def).map((c) => [c.id, c.play]));
  return { sequence: view.seq, now: { ...view.scene, characters } as NonNullable<EncounterState['now']>, undoTo: null, redo: [], past: null };
}

export interface ChoiceOdds {
  /** The choice left out, in words ("without the 2 criticals"). */
  label: string;
  odds: DeclaredOdds;
  /** What the figures leave out of this choice, when they leave something out. */
  note?: string;
}

type Command = Record<string, unknown>;

/**
 * The library's odds of the command on this viewer's copy of the encounter. A player's copy lacks what
 * is hidden from them; should deciding stumble on that, there are no odds rather than a broken page.
 */
function oddsOf(state: EncounterState, command: Command): DeclaredOdds {
  try {
    return declaredChallengeOdds(state, command);
  } catch {
    return { ok: false, reason: 'it involves what is hidden from you' };
  }
}

function without(command: Command, key: string, keep?: (x: unknown) => boolean): Command {
  const { [key]: value, ...rest } = command;
  if (!keep || !Array.isArray(value)) return rest;
  const left = value.filter(keep);
  return left.length ? { ...rest, [key]: left } : rest;
}

/** The action's odds as declared, and without each choice in it that changes the roll. */
export function choiceOdds(state: EncounterState, command: Command, names: (id: string) => string): { declared: DeclaredOdds; without: ChoiceOdds[] } {
  const declared = oddsOf(state, command);
  const out: ChoiceOdds[] = [];
  const spend = command.spend as { bonus?: number } | undefined;
  if (spend?.bonus) out.push({ label: `without the ${spend.bonus === 1 ? 'critical' : `${spend.bonus} criticals`} spent`, odds: oddsOf(state, without(command, 'spend')) });
  for (const id of (command.assistants as string[] | undefined) ?? []) {
    out.push({ label: `without ${names(id)}'s help`, odds: oddsOf(state, without(command, 'assistants', (x) => x !== id)) });
  }
  const actor = state.now?.characters[String(command.actor)]?.def;
  for (const a of (command.abilities as string[] | undefined) ?? []) {
    // Rerolls and armor are outside the exact figures (declaredChallengeOdds): say so rather than show no change.
    const kind = actor?.specialAbilities.find((x) => x.name === a)?.effect.type;
    const outside = kind ? EFFECTS[kind].odds : 'none';
    const note = outside === 'rerolls' || outside === 'armor' ? `${a}'s ${outside} are not in these figures` : undefined;
    out.push({ label: `without ${a}`, odds: oddsOf(state, without(command, 'abilities', (x) => x !== a)), ...(note ? { note } : {}) });
  }
  return { declared, without: out };
}

/** The chance of success of the action with each skill in place of the chosen one. */
export function skillOdds(state: EncounterState, command: Command, skills: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const skill of skills) {
    const r = oddsOf(state, { ...command, skill });
    if (r.ok) out.set(skill, r.odds.success);
  }
  return out;
}

export interface ActionOdds {
  declared: DeclaredOdds;
  without: ChoiceOdds[];
  /** Chance of success with each skill instead (empty when the action names no skill, as a power). */
  bySkill: Map<string, number>;
}

/** Answers already worked out for a view, by command: a form re-renders on every keystroke. */
const answered = new WeakMap<TableView, Map<string, ActionOdds | null>>();

/**
 * The odds of the action the form declares, before it is taken, with and without each choice and for
 * each skill (physical dice are not part of a command: they fill its pools when it is sent). Null
 * outside an encounter.
 */
export function actionOdds(view: TableView, cmd: Command, skills: readonly string[], names: (id: string) => string): ActionOdds | null {
  const key = JSON.stringify([cmd, skills]);
  let cache = answered.get(view);
  if (!cache) answered.set(view, (cache = new Map()));
  if (cache.has(key)) return cache.get(key)!;
  const state = encounterOf(view);
  const answer = state ? { ...choiceOdds(state, cmd, names), bySkill: 'skill' in cmd || cmd.type === 'attack' || cmd.type === 'interact' ? skillOdds(state, cmd, skills) : new Map<string, number>() } : null;
  cache.set(key, answer);
  return answer;
}
