import { PRESET_CHOICES, PRESET_LABEL } from '../lib/presets';

/**
 * The rulesets a table can play, as the start page offers them. Only names live here, so the start
 * page can offer the choice without loading any rules library; a test checks them against the
 * rulesets' own registrations.
 */
export interface RulesetChoice {
  readonly id: string;
  readonly title: string;
  /** Presets in the ruleset's order (the first is its default), with the words shown for each. */
  readonly presets: readonly { readonly id: string; readonly label: string }[];
  readonly hint: string;
}

export const PERSONAE = 'personae';

export const RULESET_CHOICES: readonly RulesetChoice[] = [
  {
    id: PERSONAE,
    title: 'Personae',
    presets: PRESET_CHOICES.map((p) => ({ id: p, label: PRESET_LABEL[p] })),
    hint: 'Every table option follows this document. You can change single options later in the Table tab.',
  },
  {
    id: 'd100',
    title: 'd100 combat rules',
    presets: [
      { id: 'seed', label: 'As the combat chapter reads' },
      { id: 'ffg-margin', label: 'Degrees from the margin, location from the reversed roll' },
      { id: 'ffg-tens-plus-one', label: 'At least one degree, location from the reversed roll' },
    ],
    hint: 'Roll-under d100 tests with degrees, hit locations and wound tracks. The preset is fixed once play begins.',
  },
  {
    id: 'lucidity',
    title: 'Lucidity (d20)',
    presets: [
      { id: 'standard', label: 'One consistent reading of each contradiction' },
      { id: 'as-written', label: 'The text read word for word' },
    ],
    hint: 'd20 rolls with buffs and breaks, the Lucidity roll, Health and Energy. The preset is fixed once play begins.',
  },
];

export function rulesetChoice(id: string): RulesetChoice | undefined {
  return RULESET_CHOICES.find((r) => r.id === id);
}
