import { registerRuleset, type Ruleset } from '@personae/core';
import { encounterDecider, initialEncounter } from './encounter';
import { optionDescriptors, PRESET_NAMES, resolveOptions, type D100Options } from './options';
import { SEED } from './rules';
import { d100DiceOf, d100Table } from './secret';
import { checkSheet, sheetJsonSchema, type D100Derived, type D100Sheet } from './sheet';

/** The d100 combat ruleset on the engine's seam: options, presets, sheets and the table decider. */
export const d100Ruleset: Ruleset<D100Options, D100Sheet, D100Derived> = {
  id: 'd100',
  title: 'd100 combat rules',
  documents: [{ file: SEED, title: 'Combat Rules (a Persona fan game on the d100 roll-under rules)', license: 'see NOTICE.md' }],
  presets: PRESET_NAMES,
  options: optionDescriptors(),
  resolveOptions: (preset, overrides) => resolveOptions(preset, overrides),
  sheet: { jsonSchema: sheetJsonSchema, check: (raw) => checkSheet(raw) },
  table: (setup) => d100Table({ ...encounterDecider, initialState: () => initialEncounter(setup.preset, setup.options) }),
  rolledDice: d100DiceOf,
};

registerRuleset(d100Ruleset);
