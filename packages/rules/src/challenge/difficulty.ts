/**
 * The difficulty ladder for unopposed challenges (personae-core-2011.txt "Unopposed Challenges",
 * "Assess the Difficulty"). Nearly Impossible is 10 or more.
 */
export const DIFFICULTIES = [
  { name: 'easy', label: 'Easy', value: 0 },
  { name: 'simple', label: 'Simple', value: 1 },
  { name: 'normal', label: 'Normal', value: 2 },
  { name: 'challenging', label: 'Challenging', value: 3 },
  { name: 'difficult', label: 'Difficult', value: 5 },
  { name: 'very-difficult', label: 'Very Difficult', value: 7 },
  { name: 'extremely-difficult', label: 'Extremely Difficult', value: 9 },
  { name: 'nearly-impossible', label: 'Nearly Impossible', value: 10 },
] as const;

export interface Difficulty {
  readonly value: number;
  readonly label: string;
}

export class DifficultyError extends Error {
  override readonly name = 'DifficultyError';
}

/** A difficulty by name ("normal", "Very Difficult", "very_difficult") or by number ("5"). */
export function parseDifficulty(input: string | number): Difficulty {
  if (typeof input === 'number' || /^\s*\d+\s*$/.test(input)) {
    const value = Number(input);
    if (!Number.isInteger(value) || value < 0 || value > 100) {
      throw new DifficultyError(`difficulty ${input} is not a whole number from 0 to 100`);
    }
    return { value, label: difficultyLabel(value) };
  }
  const key = input.trim().toLowerCase().replace(/[\s_]+/g, '-');
  const found = DIFFICULTIES.find((d) => d.name === key);
  if (!found) {
    throw new DifficultyError(`unknown difficulty "${input}"; use a number or one of: ${DIFFICULTIES.map((d) => d.name).join(', ')}`);
  }
  return { value: found.value, label: found.label };
}

/** The ladder's name for a number: the highest rung at or below it. */
export function difficultyLabel(value: number): string {
  let label: string = DIFFICULTIES[0].label;
  for (const d of DIFFICULTIES) if (value >= d.value) label = d.label;
  return value === DIFFICULTIES.find((d) => d.label === label)!.value ? label : `${label} (${value})`;
}
