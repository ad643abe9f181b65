import { RuleError } from '@personae/core';
import type { DiceSource } from '@personae/dice';

/** Rolls a damage expression ("1d8+2"), taking given dice first; returns the dice used and the total. */
export function rollDamage(expr: string, dice: DiceSource, given: readonly number[] = []): { dice: number[]; total: number } {
  const used: number[] = [];
  let total = 0;
  let next = 0;
  for (const m of expr.replace(/\s+/g, '').matchAll(/([+-]?)(\d*d\d+|\d+)/gi)) {
    const sign = m[1] === '-' ? -1 : 1;
    const term = m[2]!.toLowerCase();
    if (!term.includes('d')) {
      total += sign * Number(term);
      continue;
    }
    const [c, s] = term.split('d');
    const sides = Number(s);
    for (let i = 0; i < (c === '' ? 1 : Number(c)); i++) {
      let v: number;
      if (next < given.length) {
        v = given[next++]!;
        if (!Number.isInteger(v) || v < 1 || v > sides) throw new RuleError('lucidity.damage', `damage: a d${sides} shows 1 to ${sides}, not ${v}`, 'damage');
      } else v = dice.die(sides);
      used.push(v);
      total += sign * v;
    }
  }
  if (next < given.length) throw new RuleError('lucidity.damage', `damage: ${given.length} dice given, but ${expr} rolls ${next}`, 'damage');
  return { dice: used, total: Math.max(0, total) };
}
