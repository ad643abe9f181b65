import { seededDice, type DiceSource } from './source';

/** Dice handed on from `dice`, with every value drawn written down in order. */
export function recordingDice(dice: DiceSource): { dice: DiceSource; drawn: number[] } {
  const drawn: number[] = [];
  return {
    dice: {
      kind: dice.kind,
      die: (sides) => {
        const v = dice.die(sides);
        drawn.push(v);
        return v;
      },
    },
    drawn,
  };
}

/**
 * Dice drawn once already, handed out again in the same order (as entered dice), then fresh ones from
 * `seed` should more be drawn; `extra` counts the fresh ones. Used to decide a recorded action again
 * with its own dice under other rules.
 */
export function replayedDice(recorded: readonly number[], seed: number): { dice: DiceSource; extra: () => number } {
  let i = 0;
  let extra = 0;
  const fresh = seededDice(seed);
  return {
    dice: { kind: 'given', die: (sides) => (i < recorded.length ? recorded[i++]! : (extra++, fresh.die(sides))) },
    extra: () => extra,
  };
}
