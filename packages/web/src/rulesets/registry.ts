import type { ComponentType } from 'preact';
import type { Participant, TableSettings } from '../lib/api';
import type { Welcome } from '../lib/connection';

/**
 * The seam between the table page and a ruleset's own pages. The table page owns the connection
 * (docs/server.md: welcome, pushed views, reconnection, commands acknowledged once) and hands a
 * ruleset's page what it needs to show and play the table; the page never talks to the server itself.
 */
export interface RulesetTableProps {
  readonly tableId: string;
  /** The participant's token (for the HTTP calls of the shared settings components). */
  readonly token: string;
  /** The decider's view of the table for this participant, as the server pushed it last. */
  readonly view: unknown;
  /** The sequence number of the last event the view includes. */
  readonly version: number;
  readonly welcome: Welcome;
  readonly me: Welcome['you'];
  readonly participants: readonly Participant[];
  readonly settings: TableSettings;
  /**
   * Sends one command of the ruleset; resolves once the view includes its events. `dice`: results
   * typed in from physical dice, used in order. A refusal rejects with an Error carrying the server's
   * message (which names the field, the value and the rule).
   */
  send(command: unknown, dice?: number[]): Promise<void>;
  /** The GM changed a setting: the page passes the server's answer on. */
  onSettings(settings: TableSettings): void;
}

/** What a ruleset gives the web app. */
export interface RulesetPages {
  readonly id: string;
  /** The body of the table page for a table of this ruleset. */
  readonly Table: ComponentType<RulesetTableProps>;
}

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
