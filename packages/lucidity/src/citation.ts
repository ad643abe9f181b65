import { cite, type Citation } from '@personae/core';

/** The one seed document of this ruleset. */
export const SEED = 'lucidity-primary-character.txt';

/** A section of the seed, by its heading as the document spells it. */
export function seed(section: string): Citation {
  return cite(SEED, section);
}
