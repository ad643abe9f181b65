import { EFFECTS, declaredChallengeOdds, type DeclaredOdds, type EncounterState, type TableView } from './rules';

/**
 * Odds for the choices a player makes before an encounter action: the chance of the action as declared,
 * without each choice that changes it and with each one the player could still add, computed by the rules library on the encounter as this viewer sees it. When a character the
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

/**
 * The action's odds as declared; without each choice in it that changes the roll (criticals spent
 * before rolling, a critical kept to steer after the dice, each assistant, each special ability, its
 * rerolls and armor included); and with each choice not made that the player could add: a critical kept
 * to steer a failure after the dice, or another special ability in place of the chosen one. A choice the
 * rules would refuse (no critical banked, an ability that does not apply) is not offered.
 */
export function choiceOdds(state: EncounterState, command: Command, names: (id: string) => string): { declared: DeclaredOdds; without: ChoiceOdds[]; with: ChoiceOdds[] } {
  const declared = oddsOf(state, command);
  const out: ChoiceOdds[] = [];
  const added: ChoiceOdds[] = [];
  const spend = (command.spend ?? {}) as Record<string, unknown>;
  const spendWithout = (key: string): Command => {
    const { [key]: _left, ...rest } = spend;
    return Object.keys(rest).length ? { ...command, spend: rest } : without(command, 'spend');
  };
  if (typeof spend.bonus === 'number' && spend.bonus > 0) {
    out.push({ label: `without the ${spend.bonus === 1 ? 'critical' : `${spend.bonus} criticals`} spent`, odds: oddsOf(state, spendWithout('bonus')) });
  }
  if (declared.ok && declared.criticalSteer > 0) {
    // Kept with spend.steer, or with spend.criticals where the table's default use of criticals is to steer.
    out.push({ label: 'without a critical kept to steer', odds: oddsOf(state, spendWithout(spend.steer !== undefined ? 'steer' : 'criticals')) });
  } else {
    const offered = oddsOf(state, { ...command, spend: { ...spend, steer: 1 } });
    if (offered.ok) added.push({ label: 'with a critical kept to steer a failure after the dice', odds: offered });
  }
  for (const id of (command.assistants as string[] | undefined) ?? []) {
    out.push({ label: `without ${names(id)}'s help`, odds: oddsOf(state, without(command, 'assistants', (x) => x !== id)) });
  }
  const chosen = (command.abilities as string[] | undefined) ?? [];
  for (const a of chosen) out.push({ label: `without ${a}`, odds: oddsOf(state, without(command, 'abilities', (x) => x !== a)) });
  // One special ability a turn (personae-core-2011.txt "Scope of Special Abilities"): another one takes the chosen one's place.
  const actor = state.now?.characters[String(command.actor)]?.def;
  for (const a of actor?.specialAbilities ?? []) {
    if (a.quality || chosen.includes(a.name) || EFFECTS[a.effect.type].odds === 'none') continue;
    const offered = oddsOf(state, { ...command, abilities: [a.name] });
    if (offered.ok) added.push({ label: `with ${a.name}${chosen.length ? ' instead' : ''}`, odds: offered });
  }
  return { declared, without: out, with: added };
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
  /** Choices not made that the player could still add, each with its chance. */
  with: ChoiceOdds[];
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
