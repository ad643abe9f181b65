import { modifier, recordedDice, withSecretRolls, type Actor, type Decider, type EnteredPools, type Modifier, type SecretRollRules, type TypedOutcome } from '@personae/core';
import { dicePools } from './authority';
import type { EncounterCommand } from './commands';
import type { EncounterEvent, EncounterState, ShownEncounterEvent } from './encounter';
import { attackOdds } from './odds';
import { resolveTest } from './test';

/**
 * Secret rolls and the fairness check of typed dice at a d100 table (withSecretRolls in
 * @personae/core). A roll is secret when players are not shown its dice: the attacks, tests and
 * initiative of a character the GM keeps hidden (d100-combat-rules.txt "Combat Structure": the GM runs
 * the enemies). The table reveals them all at the end of each Round, or at the start of a new week,
 * when the GM sets it so.
 */

/** The fields of d100 events that hold dice (percentile rolls, location rolls). */
const DICE_FIELDS: ReadonlySet<string> = new Set(['dice', 'roll', 'rolls', 'locationRoll', 'attackRoll', 'evasionRoll', 'enemyRoll', 'oldRoll', 'newRoll', 'condemnedRolls', 'tieRolls']);

/**
 * The dice a d100 event records, in order. An attack's summary repeats its attack and evasion rolls;
 * only the dice of a Burst Attack's extra targets are read from it.
 */
export function d100DiceOf(event: unknown): number[] {
  const once = JSON.parse(JSON.stringify(event ?? null, (k, v: unknown) => (k === 'summary' ? ((v as { burst?: unknown } | null)?.burst ? { burst: (v as { burst: unknown }).burst } : undefined) : v))) as unknown;
  return recordedDice(once, DICE_FIELDS);
}

/**
 * The faces the fairness check counts of a percentile roll typed in: its tens and units digits, each
 * as a d10 (0 read as 10), the way the two dice of a d100 are thrown ("How Combat Works": tests roll
 * 1d100). A fair d100 gives uniform, independent digits; 100 is 0 and 0. A d10 pool counts as it is.
 */
export function percentileDigits(value: number, sides: number): number[] {
  if (sides === 10) return [value];
  if (sides !== 100) return [];
  const tens = Math.floor((value % 100) / 10);
  const units = value % 10;
  return [tens === 0 ? 10 : tens, units === 0 ? 10 : units];
}

function typedFaces(entered: EnteredPools, command: EncounterCommand, before: EncounterState, actor: Actor): number[] {
  const last = before.groups?.top[0];
  const pools = dicePools(before, command, actor, last?.type === 'attack-resolved' ? last.data.attacker : null);
  return Object.entries(entered).flatMap(([name, faces]) => {
    const pool = pools.find((p) => p.name === name);
    return pool ? faces.flatMap((f) => percentileDigits(f, pool.sides)) : [];
  });
}

/** The chance a test of `base` with `mods` succeeds, each of the hundred rolls decided by the rules (automatic results included). */
function testChance(base: number, mods: readonly Modifier[], options: EncounterState['options']): number {
  let wins = 0;
  for (let r = 1; r <= 100; r++) if (resolveTest(base, r, mods, options).success) wins++;
  return wins / 100;
}

/**
 * One outcome per roll the issuer typed dice in for: an attack (the attacker's roll, else the
 * evasion's) with its exact chance to hit (attackOdds, the same walk as `personae d100 odds`), and a
 * test called for, with its chance at its target. Other rolls count their faces only.
 */
function typedOutcomes(events: readonly EncounterEvent[], before: EncounterState, entered: EnteredPools): TypedOutcome[] {
  const out: TypedOutcome[] = [];
  for (const e of events) {
    try {
      if (e.type === 'attack-resolved' && !e.data.summary.burst && (entered.actor || entered.evasion)) {
        const attacker = before.fighters[e.data.attacker];
        const defender = before.fighters[e.data.defender];
        if (!attacker || !defender) continue;
        const protector = e.data.protector ? (before.fighters[e.data.protector] ?? null) : null;
        const hit = attackOdds(attacker, defender, e.data.spec, before.options, protector).hit;
        out.push(entered.actor ? { chance: hit, succeeded: e.data.summary.hit } : { chance: 1 - hit, succeeded: !e.data.summary.hit });
      } else if (e.type === 'test-rolled' && entered.actor) {
        // The event keeps the Score and the Advantages and Disadvantages apart, as the test read them.
        const mods = e.data.modifiers.map((m) => modifier(m.value >= 0 ? 'advantage' : 'disadvantage', m.label, m.value));
        if (resolveTest(e.data.target, e.data.roll, mods, before.options).success === e.data.success) out.push({ chance: testChance(e.data.target, mods, before.options), succeeded: e.data.success });
      }
    } catch {
      // A roll the exact odds do not cover (a target out of range): its faces still count.
    }
  }
  return out;
}

export const d100SecretRolls: SecretRollRules<EncounterState, EncounterCommand, EncounterEvent, ShownEncounterEvent> = {
  diceOf: d100DiceOf,
  diceFields: DICE_FIELDS,
  ends: { round: (e) => e.type === 'round-ended', week: (e) => e.type === 'week-started' },
  typed: { sides: 10, faces: typedFaces, outcomes: typedOutcomes },
};

/** A d100 table with secret rolls and the fairness check. */
export function d100Table(inner: Decider<EncounterState, EncounterCommand, EncounterEvent, ShownEncounterEvent>) {
  return withSecretRolls(inner, d100SecretRolls);
}
