import { asPoolDice, formatCitation } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { compareDice, poolSize } from '../challenge';
import { sumLabeled } from '../effects';
import { ATTRIBUTE_LABEL, skillUse, type SkillUse } from './combatant';
import { rule } from './errors';
import type { OrderRoll } from './events';
import { statusPenalty } from './sides';
import type { Snapshot } from './state';

/**
 * The action order of a violent encounter (personae-core-2011.txt "The Action Order, and Actions"):
 * by the method the table picks (option actionOrder): around the table in seating order, an
 * Initiative skill roll, or a skill each character chooses. Whatever the method, the character whose
 * action escalated the encounter acts first.
 *
 * Rolls are read like a challenge: highest die plus attribute first, ties broken by the next dice,
 * and a character with dice left beats one without. A tie that survives every die goes to the
 * character seated earlier (lower seat, then earlier in the list): deterministic and easy to check
 * at the table. The GM may set any order afterwards (command set-order).
 */
export interface OrderResult {
  readonly order: string[];
  readonly rolls: OrderRoll[];
  readonly explanation: string[];
}

export function seatingOrder(now: Snapshot): string[] {
  // Obstacles and hazards take no turns: the GM has them act whenever it fits (personae-core-2011.txt "Obstacles").
  const listed = now.roster.filter((id) => now.characters[id]?.present && now.characters[id]?.status !== 'dead' && !now.characters[id]?.def.obstacle);
  return listed
    .map((id, i) => ({ id, seat: now.characters[id]!.def.seat ?? i, i }))
    .sort((a, b) => a.seat - b.seat || a.i - b.i)
    .map((x) => x.id);
}

const ORDER_RULE = rule('core', 'The Action Order, and Actions');

/** The pool of a character's roll for the action order. */
export function orderPool(id: string): string {
  return `order:${id}`;
}

export function actionOrder(now: Snapshot, escalator: string | null, declared: Readonly<Record<string, string>>, dice: DiceSource): OrderResult {
  const pools = asPoolDice(dice);
  const seats = seatingOrder(now);
  const method = now.options.actionOrder;
  const explanation: string[] = [];
  const rolls: OrderRoll[] = [];
  let order: string[];
  if (method === 'seating') {
    // Around the table, starting from the one who escalated.
    const start = escalator ? Math.max(0, seats.indexOf(escalator)) : 0;
    order = [...seats.slice(start), ...seats.slice(0, start)];
    explanation.push(`Seating order${escalator ? `, starting with ${name(now, escalator)} who escalated` : ''} (option actionOrder = seating).`);
  } else {
    for (const id of seats) {
      const c = now.characters[id]!;
      let use: SkillUse;
      if (method === 'initiative-skill') use = skillUse(c.def, c.def.initiativeSkill, 'cunning');
      else {
        const chosen = declared[id] ?? bestSkill(c.def.skills.map((s) => s.name), c.def);
        use = skillUse(c.def, chosen, 'cunning');
      }
      const pool = poolSize({ base: use.dice, baseSource: use.unskilled ? `${use.name} (unskilled)` : use.name, penaltyDice: statusPenalty(now, c) }, now.options);
      const roll = pools.roll(orderPool(id), pool.dice, 10, ORDER_RULE, () => `${c.def.name}'s roll for the order (${pool.explanation})`);
      const modifiers = [{ value: c.def.attributes[use.attribute], source: ATTRIBUTE_LABEL[use.attribute] }];
      const modifier = sumLabeled(modifiers);
      rolls.push({
        id,
        skill: use.name,
        dice: roll.sorted,
        modifier,
        explanation: `${c.def.name}: ${pool.explanation}; rolled ${roll.rolled.join(', ')}${roll.source === 'given' ? ' (entered)' : ''}; +${modifier} ${ATTRIBUTE_LABEL[use.attribute]} = ${(roll.sorted[0] ?? 0) + modifier}`,
      });
    }
    const byId = new Map(rolls.map((r) => [r.id, r]));
    const ranked = [...seats].sort((a, b) => {
      const ra = byId.get(a)!;
      const rb = byId.get(b)!;
      const cmp = compareDice(ra.dice, ra.modifier, rb.dice, rb.modifier);
      if (cmp.winner === 'actor') return -1;
      if (cmp.winner === 'reactor') return 1;
      return seats.indexOf(a) - seats.indexOf(b);
    });
    order = escalator && ranked.includes(escalator) ? [escalator, ...ranked.filter((id) => id !== escalator)] : ranked;
    explanation.push(
      `${method === 'initiative-skill' ? 'Initiative skill rolls' : 'Each character rolls the skill it chose'} (option actionOrder = ${method}); highest result first, ties broken by the next dice, then by seat.`,
      ...rolls.map((r) => r.explanation),
    );
    if (escalator) explanation.push(`${name(now, escalator)} escalated the encounter and acts first (${formatCitation(ORDER_RULE)}).`);
  }
  explanation.push(`Order: ${order.map((id) => name(now, id)).join(', ')}.`);
  return { order, rolls, explanation };
}

function name(now: Snapshot, id: string): string {
  return now.characters[id]?.def.name ?? id;
}

/** The declared-skill method's default: the character's highest-rated skill (the first listed on a tie). */
function bestSkill(names: readonly string[], def: { skills: readonly { name: string; dice: number }[] }): string {
  let best = def.skills[0];
  for (const s of def.skills) if (best && s.dice > best.dice) best = s;
  return best?.name ?? names[0] ?? 'Dodge';
}
