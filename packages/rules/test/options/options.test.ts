import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPTION_DEFINITIONS, OptionError, optionsMarkdown, parseOptionAssignment, presetOptions, TableOptionsSchema, tableOptions } from '../../src/index';

describe('table options', () => {
  it('each preset gives every option a value its schema accepts', () => {
    for (const preset of ['core-2011', 'srd-v4'] as const) {
      expect(TableOptionsSchema.safeParse(presetOptions(preset)).success).toBe(true);
    }
  });

  it('every option names at least one source document', () => {
    for (const [name, def] of Object.entries(OPTION_DEFINITIONS)) {
      expect(def.sources.length, name).toBeGreaterThan(0);
      expect(def.sources.join(' '), name).toMatch(/personae-|revisions/);
    }
  });

  it('the presets differ where the documents differ', () => {
    const core = presetOptions('core-2011');
    const v4 = presetOptions('srd-v4');
    expect([core.criticals, v4.criticals]).toEqual(['core-2011', 'srd-v4']);
    expect([core.assist, v4.assist]).toEqual(['core-2011', 'srd-v4']);
    expect([core.grades, v4.grades]).toEqual(['core-2011', 'srd-v4']);
  });

  it('overrides are checked by name and value', () => {
    expect(tableOptions('core-2011', { fullTie: 'reactor' }).fullTie).toBe('reactor');
    expect(() => tableOptions('core-2011', { nonsense: 1 } as never)).toThrow(/unknown option "nonsense"/);
    expect(() => tableOptions('core-2011', { fullTie: 'coin' as never })).toThrow(/fullTie.*"tie", "actor", "reactor", "reroll"/);
    expect(() => tableOptions('core-2011', { maxAssistants: -1 })).toThrow(OptionError);
  });

  it('reads name=value text into typed values', () => {
    expect(parseOptionAssignment('maxAssistants=2')).toEqual(['maxAssistants', 2]);
    expect(parseOptionAssignment('raiseDead=true')).toEqual(['raiseDead', true]);
    expect(parseOptionAssignment('maxAssistants=null')).toEqual(['maxAssistants', null]);
    expect(parseOptionAssignment('fullTie=reroll')).toEqual(['fullTie', 'reroll']);
    expect(() => parseOptionAssignment('fullTie')).toThrow(/name=value/);
    expect(() => parseOptionAssignment('colour=red')).toThrow(/unknown option/);
  });

  it('docs/options.md is generated from the definitions and up to date', () => {
    const committed = readFileSync(new URL('../../../../docs/options.md', import.meta.url), 'utf8');
    expect(committed).toBe(optionsMarkdown());
  });
});
