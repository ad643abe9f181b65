import type { ChallengeResult } from '../challenge';
import type { TableOptions } from '../options';
import type { Stage, Stamp } from '../time';
import type { AttributeKey, Combatant } from './combatant';
import type { Status } from './injury';
import type { ActiveEffect, ChallengeKind, DeclaredDefense, FollowUp, Place } from './state';

export type { ChallengeKind } from './state';

/** What every event carries: its place in the log and the first event of the action it belongs to. */
export interface EventMeta {
  readonly seq: number;
  /** Sequence number of the first event of the command that produced this event. */
  readonly action: number;
}


/** One character's roll for the action order: the dice, the modifier, and where they came from. */
export interface OrderRoll {
  readonly id: string;
  readonly skill: string;
  readonly dice: readonly number[];
  readonly modifier: number;
  readonly explanation: string;
}

export type EventBody =
  | { readonly type: 'set-up'; readonly title: string; readonly options: TableOptions; readonly characters: readonly Combatant[] }
  | { readonly type: 'options-changed'; readonly options: TableOptions }
  | { readonly type: 'character-joined'; readonly character: Combatant }
  | { readonly type: 'character-updated'; readonly character: Combatant }
  | { readonly type: 'character-left'; readonly id: string }
  | { readonly type: 'session-began'; readonly session: number }
  | { readonly type: 'session-ended'; readonly session: number }
  | { readonly type: 'day-began'; readonly day: number }
  | { readonly type: 'scene-began'; readonly scene: number; readonly title?: string }
  | { readonly type: 'scene-ended'; readonly scene: number }
  | { readonly type: 'escalated'; readonly by: string; readonly from: Stage; readonly to: Stage; readonly encounter: number }
  | { readonly type: 'de-escalated'; readonly by: string; readonly from: Stage; readonly to: Stage }
  | { readonly type: 'encounter-ended'; readonly encounter: number; readonly peak: Stage }
  | {
      readonly type: 'order-set';
      readonly method: TableOptions['actionOrder'] | 'manual';
      readonly order: readonly string[];
      readonly rolls: readonly OrderRoll[];
      readonly explanation: readonly string[];
    }
  | { readonly type: 'round-began'; readonly round: number }
  | { readonly type: 'turn-began'; readonly actor: string; readonly round: number; readonly index: number; readonly actionSpent: boolean }
  | { readonly type: 'turn-skipped'; readonly actor: string; readonly reason: string }
  | { readonly type: 'turn-ended'; readonly actor: string }
  | { readonly type: 'round-ended'; readonly round: number }
  | { readonly type: 'moved'; readonly actor: string; readonly usesAction: boolean; readonly description?: string; readonly to?: Place }
  | {
      /** An action taken: marks the turn's action spent and the special ability used. */
      readonly type: 'action-taken';
      readonly actor: string;
      readonly what: string;
      readonly usesAction: boolean;
    }
  | {
      /** A special ability (not a Quality) a character benefits from: one a turn. */
      readonly type: 'ability-used';
      readonly actor: string;
      readonly ability: string;
      readonly turnKey: string;
    }
  | {
      readonly type: 'challenge-resolved';
      readonly kind: ChallengeKind;
      readonly actor: string;
      /** The reactor's id, or "gm" for the GM's roll. */
      readonly reactor: string;
      readonly skill: string;
      readonly reactorSkill: string;
      readonly purpose: string;
      readonly result: ChallengeResult;
      /** Lines about the encounter rules that shaped the challenge (defenses, abilities, penalties). */
      readonly notes: readonly string[];
    }
  | {
      readonly type: 'virtual-answered';
      readonly actor: string;
      readonly target: string;
      readonly question: string;
      readonly explanation: string;
    }
  | {
      readonly type: 'hits-sustained';
      readonly target: string;
      readonly by: string;
      readonly incoming: number;
      readonly before: number;
      readonly after: number;
      readonly lost: number;
      readonly sources: readonly string[];
      /** The status the tally amounts to, in effect now or at the end of the round. */
      readonly tallied: Status;
    }
  | { readonly type: 'hits-removed'; readonly target: string; readonly before: number; readonly after: number; readonly reason: string }
  | { readonly type: 'status-changed'; readonly target: string; readonly from: Status; readonly to: Status; readonly reason: string }
  | { readonly type: 'consciousness-changed'; readonly target: string; readonly conscious: boolean; readonly reason: string }
  | { readonly type: 'stabilized'; readonly by: string; readonly target: string }
  | { readonly type: 'died'; readonly target: string; readonly reason: string }
  | {
      readonly type: 'recovery-set';
      readonly target: string;
      readonly recoverFromScene?: number;
      readonly lastRecoveryScene?: number;
      readonly outForScene?: number | null;
      readonly relapse?: boolean;
      readonly healLater?: { readonly hits: number; readonly atEndOfScene: number } | null;
      readonly reason: string;
    }
  | {
      readonly type: 'criticals-banked';
      readonly owner: string;
      readonly earnedBy: string;
      readonly count: number;
      readonly lost: number;
      readonly earned: Stamp;
      readonly reason: string;
      /** Why none were banked, when a table option keeps this character from earning any (all `count` are lost). */
      readonly withheld?: string;
    }
  | {
      readonly type: 'criticals-spent';
      readonly owner: string;
      readonly by: string;
      readonly count: number;
      readonly purpose: string;
      /** Turned in to the GM for something special (option criticalDefaultUse = gm-special). */
      readonly toGm?: boolean;
      /** The character whose next challenge these criticals make succeed. */
      readonly readies?: string;
    }
  | { readonly type: 'readied-success-used'; readonly actor: string }
  | {
      /** An interaction challenge won wears the target's resolve (option nonViolentExtended = health-track). */
      readonly type: 'resolve-worn';
      readonly target: string;
      readonly by: string;
      readonly encounter: number;
      readonly before: number;
      readonly after: number;
      readonly size: number;
      readonly attribute: AttributeKey;
      /** Worn through: the target yields to `by`. */
      readonly yielded: boolean;
    }
  | { readonly type: 'criticals-expired'; readonly owner: string; readonly count: number; readonly reason: string }
  | { readonly type: 'criticals-given'; readonly from: string; readonly to: string; readonly count: number }
  | { readonly type: 'usage-counted'; readonly key: string; readonly what: string }
  | { readonly type: 'defense-declared'; readonly actor: string; readonly defense: DeclaredDefense }
  | { readonly type: 'defense-ended'; readonly actor: string }
  | { readonly type: 'assist-declared'; readonly actor: string; readonly primary: string }
  | { readonly type: 'assist-spent'; readonly actor: string }
  | { readonly type: 'action-spent-ahead'; readonly actor: string; readonly reason: string }
  | { readonly type: 'effect-started'; readonly effect: ActiveEffect }
  | { readonly type: 'effect-maintained'; readonly id: number; readonly round: number }
  | { readonly type: 'effect-ended'; readonly id: number; readonly reason: string }
  | { readonly type: 'order-changed'; readonly order: readonly string[]; readonly reason: string }
  | ({
      /** A special ability makes a challenge follow at once (personae-core-2011.txt "What Special Abilities Can Do"). */
      readonly type: 'follow-up-pending';
    } & FollowUp)
  | {
      /** The challenge that was to follow was issued (`taken`), or the table went on to something else. */
      readonly type: 'follow-up-ended';
      readonly actor: string;
      readonly reactor: string;
      readonly ability: string;
      readonly taken: boolean;
      readonly reason: string;
    }
  | {
      /**
       * A challenge the character issued from the table's roller, counted in its development tally like
       * one issued in an encounter (personae-v4-srd-playing.txt "Clear Success, Glancing Success, and Steering").
       */
      readonly type: 'roll-tallied';
      readonly actor: string;
      readonly outcome: ChallengeResult['outcome'];
      readonly grade: ChallengeResult['grade'];
      readonly purpose?: string;
    }
  | { readonly type: 'undone'; readonly toSequence: number }
  | { readonly type: 'redone'; readonly toSequence: number };

export type EncounterEvent = EventBody & EventMeta;
export type EventType = EventBody['type'];
