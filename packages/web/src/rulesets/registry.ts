import type { RulesetPages } from './types';

export type { RulesetPages, RulesetTableProps } from './types';

/**
 * The pages of each ruleset other than Personae (whose pages are the app's own, under ui/). Each
 * ruleset's pages live in `rulesets/<id>/` and are loaded only when a table of that ruleset opens.
 * Until a ruleset has pages of its own, the general page shows its table.
 */
const LOADERS: Record<string, () => Promise<RulesetPages>> = {
  d100: () => import('./d100/Table').then((m) => m.d100Pages),
  lucidity: () => import('./lucidity/Table').then((m) => m.lucidityPages),
};

/** The pages of a ruleset, or null when the web app has none for it. */
export function loadRulesetPages(id: string): Promise<RulesetPages> | null {
  const load = LOADERS[id];
  return load ? load() : null;
}

export function hasRulesetPages(id: string): boolean {
  return Object.prototype.hasOwnProperty.call(LOADERS, id);
}
