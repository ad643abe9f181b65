import { registerRuleset, type Ruleset } from '@personae/core';
import { SEED } from './citation';
import { lucidityDecider } from './encounter/encounter';
import { lucidityDiceOf, lucidityTable } from './encounter/secret';
import { optionDescriptors, PRESETS, resolveOptions, type LucidityOptions } from './options';
import { checkSheet, sheetJsonSchema, type LuciditySheet, type SheetDerived } from './sheet';

/** The Lucidity d20 ruleset as the hosts see it: options, presets, sheets and the table decider. */
export const lucidityRuleset: Ruleset<LucidityOptions, LuciditySheet, SheetDerived> = {
  id: 'lucidity',
  title: 'Lucidity (d20)',
  documents: [{ file: SEED, title: 'Creating a Primary Character', license: 'CC-BY-4.0' }],
  presets: PRESETS,
  options: optionDescriptors(),
  resolveOptions: (preset, overrides) => resolveOptions(preset, overrides),
  sheet: {
    jsonSchema: sheetJsonSchema,
    check: (raw, options) => checkSheet(raw, options ?? resolveOptions()),
  },
  table: (setup) => lucidityTable(lucidityDecider(setup.preset, setup.options)),
  rolledDice: lucidityDiceOf,
};

registerRuleset(lucidityRuleset);
