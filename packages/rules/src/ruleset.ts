import { registerRuleset, RuleError, type OptionDescriptor, type Ruleset, type TableSetup } from '@personae/core';
import { characterSheetJsonSchema, loadSheet, type CharacterSheet } from './character';
import { allowedValues, isPreset, OPTION_DEFINITIONS, OptionError, PRESETS, tableOptions, type TableOptions } from './options';
import { initialTableState, personaeTable, type TableState } from './table';

/** The Personae options as the hosts list them (names, values, defaults under the first preset). */
function optionDescriptors(): OptionDescriptor[] {
  return Object.entries(OPTION_DEFINITIONS).map(([name, def]) => {
    const values = allowedValues(def.schema);
    const value = def.defaults[PRESETS[0]] as unknown;
    const kind = values ? 'enum' : typeof value === 'boolean' ? 'boolean' : 'integer';
    const fallback = typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string' ? value : String(value);
    return {
      name,
      title: name,
      description: def.summary,
      kind,
      default: fallback,
      topic: 'Options',
      ...(values ? { values: values.map(String) } : {}),
    } satisfies OptionDescriptor;
  });
}

/** The options in force for a preset and overrides; a bad preset or option is refused by name. */
function resolvePersonaeOptions(preset: string = PRESETS[0], overrides: Readonly<Record<string, unknown>> = {}): TableOptions {
  if (!isPreset(preset)) throw new RuleError('invalid-option', `unknown Personae preset "${preset}"; the presets are: ${PRESETS.join(', ')}`, 'preset');
  try {
    return tableOptions(preset, overrides as Partial<TableOptions>);
  } catch (error) {
    if (error instanceof OptionError) throw new RuleError('invalid-option', error.message, `options.${error.option}`);
    throw error;
  }
}

/** The Personae table for a preset and options: the table starts with them in force. */
function personaeTableFor(setup: TableSetup) {
  const preset = setup.preset ?? PRESETS[0];
  const options = resolvePersonaeOptions(preset, setup.options);
  if (!isPreset(preset)) throw new RuleError('invalid-option', `unknown Personae preset "${preset}"`, 'preset');
  return { ...personaeTable, initialState: (): TableState => ({ ...initialTableState(preset), options }) };
}

/** Personae as a ruleset on the engine's seam: the first module, hosted like the others. */
export const personaeRuleset: Ruleset<TableOptions, CharacterSheet, Record<string, never>> = {
  id: 'personae',
  title: 'Personae',
  documents: [
    { file: 'personae-core-2011.txt', title: 'Personae core rules (2011)', license: 'see NOTICE.md' },
    { file: 'personae-playing-web.txt', title: 'Playing Personae (web edition)', license: 'see NOTICE.md' },
    { file: 'personae-v4-srd-playing.txt', title: 'Personae v4 SRD: playing', license: 'see NOTICE.md' },
  ],
  presets: PRESETS,
  options: optionDescriptors(),
  resolveOptions: resolvePersonaeOptions,
  sheet: {
    jsonSchema: characterSheetJsonSchema,
    check(raw) {
      const loaded = loadSheet(JSON.stringify(raw ?? null), 'sheet.json');
      if (loaded.ok) return { ok: true, sheet: loaded.sheet, derived: {}, warnings: [] };
      return { ok: false, problems: loaded.error.issues.map((issue) => ({ field: issue.path ?? '(top level)', message: issue.message })) };
    },
  },
  table: personaeTableFor,
};

registerRuleset(personaeRuleset);
