import { describe, expect, it } from 'vitest';
import { OPTION_NAMES, optionDescriptors, parseOptionPairs, resolveOptions } from '../src';

describe('options and presets', () => {
  it('the standard preset is every default; as-written reads the contradictions word for word', () => {
    expect(resolveOptions().protectionPipeline).toBe('single');
    expect(resolveOptions('as-written').protectionPipeline).toBe('double-deduction');
  });
  it('refuses an unknown option, a wrong value and an unknown preset, naming them', () => {
    expect(() => resolveOptions('standard', { nope: 1 })).toThrow(/unknown option "nope"/);
    expect(() => resolveOptions('standard', { protectionPipeline: 'triple' })).toThrow(/protectionPipeline takes single, double-deduction, raw-thresholds, not "triple"/);
    expect(() => resolveOptions('standard', { defenseBase: 'x' })).toThrow(/defenseBase takes a whole number/);
    expect(() => resolveOptions('house')).toThrow(/unknown preset "house"/);
  });
  it('reads NAME=VALUE pairs with numbers and booleans', () => {
    expect(parseOptionPairs(['defenseBase=8', 'customTraits=false', 'successOn=meet'])).toEqual({ defenseBase: 8, customTraits: false, successOn: 'meet' });
    expect(() => parseOptionPairs(['successOn'])).toThrow(/NAME=VALUE/);
  });
  it('every option has a descriptor citing a seed section', () => {
    const d = optionDescriptors();
    expect(d.map((x) => x.name)).toEqual(OPTION_NAMES);
    for (const x of d) expect(x.source?.document).toBe('lucidity-primary-character.txt');
  });
});

describe('docs/lucidity/options.md', () => {
  it('is the page optionsMarkdown() writes', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { optionsMarkdown } = await import('../src');
    expect(readFileSync(join(import.meta.dirname, '../../../docs/lucidity/options.md'), 'utf8')).toBe(optionsMarkdown());
  });
});
