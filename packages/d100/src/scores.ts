/** The ten Scores; each Bonus is the Score's tens digit. */
export const SCORES = ['melee', 'ballistic', 'magic', 'strength', 'toughness', 'agility', 'intelligence', 'perception', 'willpower', 'fellowship'] as const;
export type Score = (typeof SCORES)[number];
