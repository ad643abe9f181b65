import { isPreset, parseOptionAssignment, PRESETS, replayUnderRules, tableOptions, type Combatant, type Preset, type RejudgedRoll, type RollVerdict, type Scenario, type ScenarioRun, type TableOptions } from '@personae/rules';
import { percent } from '../format/odds.js';
import { indent, textTable } from '../format/table.js';
import { CliError } from '../io.js';
import { clean, tableLabel } from './odds-lab.js';

/** `--rules` and `--option` of `personae replay`: the rule set to judge the recorded dice by. */
export function readReplayRules(scenario: Scenario, rules: string | undefined, options: readonly string[]): { preset: Preset; overrides: Partial<TableOptions> } {
  if (rules !== undefined && !isPreset(rules)) throw new CliError(`--rules: unknown rules preset "${rules}"; known presets: ${PRESETS.join(', ')}`);
  // Without --rules the scenario's own preset, with its own options and then the ones given here.
  const preset = (rules ?? scenario.options.preset) as Preset;
  const overrides: Record<string, unknown> = rules === undefined ? { ...scenario.options.options } : {};
  for (const text of options) {
    try {
      const [name, value] = parseOptionAssignment(text);
      overrides[name] = value;
      tableOptions(preset, overrides as Partial<TableOptions>);
    } catch (e) {
      throw new CliError(`--option "${text}": ${(e as Error).message}`);
    }
  }
  return { preset, overrides: overrides as Partial<TableOptions> };
}

function verdictJson(v: RollVerdict) {
  return { outcome: v.outcome, grade: v.grade, criticals: v.criticals, chance: clean(v.chance), ...(v.rollsAgain ? { rollsAgain: true } : {}) };
}

function verdictText(v: RollVerdict): string {
  const crit = v.criticals.actor + v.criticals.reactor > 0 ? `, criticals ${v.criticals.actor}/${v.criticals.reactor}` : '';
  const what = v.rollsAgain ? 'full tie, rolled again' : `${v.outcome}${v.grade ? ` (${v.grade})` : ''}`;
  return `${what}${crit}; chance ${percent(v.chance, 1)}`;
}

/** What each character ended the run with: hits, status, consciousness. */
function finalStates(run: ScenarioRun): Record<string, { hits: number; status: string; conscious: boolean }> {
  const now = run.state.now;
  if (!now) return {};
  return Object.fromEntries(Object.entries(now.characters).map(([id, c]) => [id, { hits: c.hits, status: c.status, conscious: c.conscious }]));
}

/** `personae replay FILE --rules PRESET`: every roll then and now, and the scenario played again. */
export function replayRulesReport(scenario: Scenario, characters: readonly Combatant[], seed: number, choice: { preset: Preset; overrides: Partial<TableOptions> }) {
  const r = replayUnderRules(scenario, characters, seed, choice.preset, choice.overrides);
  const thenLabel = tableLabel({ preset: scenario.options.preset, overrides: scenario.options.options });
  const nowLabel = tableLabel({ preset: choice.preset, overrides: choice.overrides });
  const rollJson = (x: RejudgedRoll & { event: number; skill: string; purpose: string }) => ({
    event: x.event,
    kind: x.kind,
    skill: x.skill,
    purpose: x.purpose,
    actor: x.actor,
    reactor: x.reactor,
    then: verdictJson(x.then),
    now: verdictJson(x.now),
    changed: x.changed,
  });
  const thenFinal = finalStates(r.then.run);
  const nowFinal = finalStates(r.now.run);
  const json = {
    command: 'replay',
    title: scenario.title,
    seed,
    then: { rules: thenLabel, preset: r.then.preset, options: scenario.options.options },
    now: { rules: nowLabel, preset: r.now.preset, options: choice.overrides },
    rolls: r.rolls.map(rollJson),
    changed: r.rolls.filter((x) => x.changed).length,
    characters: Object.fromEntries(Object.keys({ ...thenFinal, ...nowFinal }).map((id) => [id, { then: thenFinal[id] ?? null, now: nowFinal[id] ?? null }])),
    ...(r.then.run.error ? { thenError: r.then.run.error } : {}),
    ...(r.now.run.error ? { nowError: r.now.run.error } : {}),
  };
  const lines = [`${scenario.title}: the same dice under ${nowLabel} (recorded under ${thenLabel}, seed ${seed})`, ''];
  const rows: string[][] = [['#', 'roll', 'dice', `then (${thenLabel})`, `now (${nowLabel})`, '']];
  r.rolls.forEach((x, i) => {
    rows.push([
      String(i + 1),
      `${x.actor.name} ${x.skill} vs ${x.reactor.name}`,
      `[${x.actor.dice.join(',')}]${x.actor.modifier >= 0 ? '+' : ''}${x.actor.modifier} vs [${x.reactor.dice.join(',')}]${x.reactor.modifier >= 0 ? '+' : ''}${x.reactor.modifier}`,
      verdictText(x.then),
      verdictText(x.now),
      x.changed ? 'changed' : '',
    ]);
  });
  lines.push(...indent(textTable(rows)), '', `${json.changed} of ${r.rolls.length} rolls come out differently.`, '');
  lines.push('Played again under the new rules from the same dice stream:');
  const ends: string[][] = [['character', 'then', 'now']];
  for (const [id, v] of Object.entries(json.characters)) {
    const text = (s: { hits: number; status: string; conscious: boolean } | null) => (s ? `${s.status}, ${s.hits} hits${s.conscious ? '' : ', unconscious'}` : '-');
    ends.push([id, text(v.then), text(v.now)]);
  }
  lines.push(...indent(textTable(ends)));
  if (r.now.run.error) lines.push('', `  Under ${nowLabel} action ${r.now.run.error.action} is refused (${r.now.run.error.code}): ${r.now.run.error.message}; the run stops there.`);
  return { json, lines };
}
