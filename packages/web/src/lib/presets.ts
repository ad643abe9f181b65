import type { Preset } from '@personae/rules/options/options';

/**
 * The rulesets a table can play by, named in words. Only the type comes from the rules library, so the
 * start page can offer the choice without loading it.
 */
export const PRESET_LABEL: Record<Preset, string> = {
  'core-2011': 'Personae core rules (2011)',
  'srd-v4': 'Personae v4 SRD',
};

export const PRESET_CHOICES = Object.keys(PRESET_LABEL) as Preset[];
export type { Preset };
