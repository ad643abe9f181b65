import { d100Ruleset } from '@personae/d100';
import { lucidityRuleset } from '@personae/lucidity';
import { personaeRuleset } from '@personae/rules';
import { describe, expect, it } from 'vitest';
import { RULESET_CHOICES } from '../src/rulesets/catalog';
import { hasRulesetPages } from '../src/rulesets/registry';

describe('the rulesets the create form offers', () => {
  it('are the registered rulesets, each with its presets in its own order', () => {
    const registered = [personaeRuleset, d100Ruleset, lucidityRuleset];
    expect(RULESET_CHOICES.map((r) => r.id)).toEqual(registered.map((r) => r.id));
    for (const r of registered) {
      expect(RULESET_CHOICES.find((c) => c.id === r.id)!.presets.map((p) => p.id)).toEqual([...r.presets]);
    }
  });

  it('each have table pages: Personae its own, the others through the ruleset registry', () => {
    for (const r of RULESET_CHOICES.filter((c) => c.id !== 'personae')) expect(hasRulesetPages(r.id)).toBe(true);
    expect(hasRulesetPages('gurps')).toBe(false);
  });
});
