import { chooseRuleSets, ruleSetLabel } from '@personae/core';
import { tableOptions, type OptionName, type Preset, type TableOptions } from '../options/options';
import { expected } from '../odds/decided';
import type { ChallengeOdds } from '../odds/types';

/**
 * Comparing rule sets: the same odds question under several presets or option values, as
 * `personae odds --compare` and the web roller ask it.
 */

/** A rule set: a preset with the options changed from it. */
export interface RuleSet {
  readonly preset: Preset;
  readonly overrides: Partial<TableOptions>;
}

export { ruleSetLabel };

/**
 * The rule sets a comparison asks for (core's `chooseRuleSets` with the Personae presets and options).
 * Throws the rules library's OptionError for an option or value it does not know.
 */
export function ruleSetsToCompare(base: RuleSet, presets: readonly Preset[], variants: readonly (readonly [OptionName, unknown])[]): (RuleSet & { readonly label: string; readonly options: TableOptions })[] {
  return chooseRuleSets(base, presets, variants, tableOptions);
}

/** The figures of one odds query that a comparison lists, with their labels. */
export const COMPARED_FIELDS = [
  ['success', 'Success'],
  ['clearSuccess', 'clear / on the highest dice'],
  ['glancingSuccess', 'glancing / by tie-break or extra dice'],
  ['failure', 'Failure'],
  ['fullTie', 'Full tie'],
] as const;

export type ComparedField = (typeof COMPARED_FIELDS)[number][0];

export type OddsDifference = { readonly rules: string; readonly against: string; readonly expectedCriticals: number } & Record<ComparedField, number>;

/** Each rule set's figures less the first one's: what changing the rules does. */
export function oddsDifferences(entries: readonly { label: string; odds: ChallengeOdds }[]): OddsDifference[] {
  const [first, ...rest] = entries;
  if (!first) return [];
  return rest.map((e) => ({
    rules: e.label,
    against: first.label,
    ...(Object.fromEntries(COMPARED_FIELDS.map(([field]) => [field, e.odds[field] - first.odds[field]])) as Record<ComparedField, number>),
    expectedCriticals: expected(e.odds.criticals) - expected(first.odds.criticals),
  }));
}
