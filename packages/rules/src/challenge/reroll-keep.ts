import { z } from 'zod';

/** Which result a reroll keeps: the second roll, or the better of the two (personae-core-2011.txt "What Special Abilities Can Do"). */
export const RerollKeepSchema = z.enum(['second', 'better']);
export type RerollKeep = z.infer<typeof RerollKeepSchema>;
