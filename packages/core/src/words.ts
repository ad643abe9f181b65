/**
 * Words put into refusals and descriptions. A command's or a thing's name often goes after an
 * indefinite article ("in an attack command", "a use-consumable command"); the article follows the
 * sound of the word, not only its first letter.
 */

/** Words spelt with a vowel that sound a consonant first ("a use", "a one"), or the other way round ("an hour"). */
const CONSONANT_SOUND = /^(?:us[eiu]|ut[ie]|uni(?:t|q|v|on|f|s)|eu|ewe|one\b|once\b)/i;
const VOWEL_SOUND = /^(?:hour|honest|honou?r|heir)/i;

/** "a" or "an" before `word`. */
export function indefiniteArticle(word: string): 'a' | 'an' {
  const w = word.trim();
  if (VOWEL_SOUND.test(w)) return 'an';
  if (CONSONANT_SOUND.test(w)) return 'a';
  return /^[aeiou]/i.test(w) ? 'an' : 'a';
}

/** `phrase` after its indefinite article: "an attack command", "a roll". */
export function withArticle(phrase: string): string {
  return `${indefiniteArticle(phrase)} ${phrase}`;
}
