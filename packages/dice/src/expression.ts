/**
 * Dice expressions as typed on a command line or in a form:
 *   "3d10+4"      roll three ten-sided dice, add 4 to the result
 *   "d10"         one die
 *   "[7,5,2]+3"   dice already rolled (physical dice), add 3
 *   "2d10+3-1"    several modifiers are summed
 */
export type DiceExpression =
  | { readonly kind: 'roll'; readonly count: number; readonly sides: number; readonly modifier: number; readonly text: string }
  | { readonly kind: 'given'; readonly dice: readonly number[]; readonly sides: number; readonly modifier: number; readonly text: string };

export class DiceExpressionError extends Error {
  override readonly name = 'DiceExpressionError';
}

const ROLL = /^(\d*)\s*[dD]\s*(\d+)$/;
const GIVEN = /^\[\s*([^\]]*)\]$/;
const MODIFIER = /([+-])\s*(\d+)/y;

/** Parse a dice expression; `defaultSides` applies to given dice (the sides cannot be read from them). */
export function parseDiceExpression(input: string, defaultSides = 10): DiceExpression {
  const text = input.trim();
  if (text === '') throw new DiceExpressionError('empty dice expression: expected something like "3d10+4" or "[7,5,2]+3"');
  const poolEnd = text.startsWith('[') ? text.indexOf(']') + 1 : findModifierStart(text);
  if (poolEnd === 0) throw new DiceExpressionError(`"${text}": a "[" without its closing "]"`);
  const poolText = text.slice(0, poolEnd).trim();
  const modifier = parseModifiers(text.slice(poolEnd), text);

  const given = GIVEN.exec(poolText);
  if (given) {
    const items = given[1]!.trim() === '' ? [] : given[1]!.split(',').map((s) => s.trim());
    const dice = items.map((item, i) => {
      if (!/^\d+$/.test(item)) throw new DiceExpressionError(`"${text}": die #${i + 1} ("${item}") is not a whole number`);
      const value = Number(item);
      if (value < 1 || value > defaultSides) {
        throw new DiceExpressionError(`"${text}": die #${i + 1} is ${value}, but a d${defaultSides} shows 1 to ${defaultSides}`);
      }
      return value;
    });
    return { kind: 'given', dice, sides: defaultSides, modifier, text };
  }
  const roll = ROLL.exec(poolText);
  if (roll) {
    const count = roll[1] === '' ? 1 : Number(roll[1]);
    const sides = Number(roll[2]);
    if (count > 1000) throw new DiceExpressionError(`"${text}": ${count} dice is more than the 1000 a pool may hold`);
    if (sides < 2 || sides > 1000) throw new DiceExpressionError(`"${text}": a die needs 2 to 1000 sides, got ${sides}`);
    return { kind: 'roll', count, sides, modifier, text };
  }
  throw new DiceExpressionError(`"${text}": expected dice like "3d10" or "[7,5,2]" before any +/- modifier`);
}

function findModifierStart(text: string): number {
  const m = /[+-]/.exec(text);
  return m ? m.index : text.length;
}

function parseModifiers(rest: string, text: string): number {
  let total = 0;
  let at = 0;
  const trimmed = rest.trim();
  while (at < trimmed.length) {
    MODIFIER.lastIndex = at;
    const m = MODIFIER.exec(trimmed);
    if (!m) throw new DiceExpressionError(`"${text}": cannot read "${trimmed.slice(at)}" as a +/- whole-number modifier`);
    total += (m[1] === '-' ? -1 : 1) * Number(m[2]);
    at = MODIFIER.lastIndex;
    while (trimmed[at] === ' ') at++;
  }
  return total;
}
