import type { ComponentType } from 'preact';
import type { Participant, TableSettings } from '../lib/api';
import type { Welcome } from '../lib/connection';
import type { EnteredPools } from '../lib/rules';

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
   * typed in from physical dice, by the named pool each fills. A refusal rejects with an Error carrying the server's
   * message (which names the field, the value and the rule). `expectedVersion`: the version the
   * command was asked from (an undo names the `version` its page showed), refused with a conflict
   * if the table has moved on.
   */
  send(command: unknown, dice?: EnteredPools, expectedVersion?: number): Promise<void>;
  /** The GM changed a setting: the page passes the server's answer on. */
  onSettings(settings: TableSettings): void;
}

/** What a ruleset gives the web app. */
export interface RulesetPages {
  readonly id: string;
  /** The body of the table page for a table of this ruleset. */
  readonly Table: ComponentType<RulesetTableProps>;
}
