import { adjacent, type Fighter, type Score } from './fighter';
import { ANALYSE_CITATION } from './analyse';

/**
 * Distract and Scary Face (d100-combat-rules.txt, "Analysing Targets, Disrupting Targets and
 * Tricks"): opposed skill tests against one enemy whose effect lasts until the start of the actor's
 * next turn. Distract lets the actor force the enemy to reroll one test and keep the worse result;
 * Scary Face gives the enemy a Disadvantage on every test against the actor or an ally adjacent to it.
 */
/** The seed's heading, shared with Analyse Target. */
export const DISRUPT_CITATION = ANALYSE_CITATION;

export const DISRUPTIONS = ['distract', 'scary-face'] as const;
export type Disruption = (typeof DISRUPTIONS)[number];

/**
 * The skills each side tests, as patterns over a skill's name and focus, with the Scores to fall back
 * on: Distract is Manipulation (Deception) or Awareness (Anticipate) against Inquiry (Scrutiny) or
 * Perception; Scary Face is Athletics or Authority (Intimidate) against Fortitude (Courage) or Willpower.
 */
export const DISRUPT_SKILLS: Readonly<Record<Disruption, { readonly own: RegExp; readonly ownScores: readonly Score[]; readonly theirs: RegExp; readonly theirScores: readonly Score[] }>> = {
  distract: { own: /decept|anticipat/i, ownScores: ['fellowship', 'perception'], theirs: /scrutin/i, theirScores: ['perception'] },
  'scary-face': { own: /intimidat/i, ownScores: ['strength', 'fellowship'], theirs: /courage/i, theirScores: ['willpower'] },
};

/**
 * Whether a Scary Face burdens `scared`'s test against `other`: `other` is one who made the face, or
 * an ally of theirs standing adjacent to them on the map.
 */
export function scaryFaceAgainst(fighters: Readonly<Record<string, Fighter>>, scared: Fighter, other: Fighter): boolean {
  return (scared.conditions.scaredBy ?? []).some((by) => {
    if (by === other.id) return true;
    const face = fighters[by];
    return face !== undefined && !face.out && face.side === other.side && adjacent(face, other);
  });
}

/** A character's turn starts: the Distraction and the Scary Faces it made end. */
export function disruptionsEnd(fighters: Readonly<Record<string, Fighter>>, who: string): Record<string, Fighter> {
  const out: Record<string, Fighter> = {};
  for (const f of Object.values(fighters)) {
    const distracting = f.id === who ? null : (f.conditions.distracting ?? null);
    const scaredBy = (f.conditions.scaredBy ?? []).filter((by) => by !== who);
    out[f.id] = distracting === (f.conditions.distracting ?? null) && scaredBy.length === (f.conditions.scaredBy ?? []).length ? f : { ...f, conditions: { ...f.conditions, distracting, scaredBy } };
  }
  return out;
}
