/**
 * Comparing rule sets, for every ruleset with exact odds: the same question under several presets or
 * option values. A rule set is a preset with the options changed from it.
 */
export interface RuleSetChoice<P extends string = string, V extends object = Readonly<Record<string, unknown>>> {
  readonly preset: P;
  readonly overrides: V;
}

/** "core-2011", or "srd-v4 with fullTie=reroll, assist=web". */
export function ruleSetLabel(rules: { readonly preset: string; readonly overrides: object }): string {
  const changed = Object.entries(rules.overrides).map(([k, v]) => `${k}=${String(v)}`);
  return changed.length > 0 ? `${rules.preset} with ${changed.join(', ')}` : rules.preset;
}

/**
 * The rule sets a comparison asks for. Each named preset is taken with the base's own changed options;
 * each variant is the base with that one option changed. Without presets the base comes first, so every
 * variant is compared with it. `resolve` gives a rule set's options and throws on what it refuses.
 */
export function chooseRuleSets<P extends string, V extends object, O>(
  base: RuleSetChoice<P, V>,
  presets: readonly P[],
  variants: readonly (readonly [string, unknown])[],
  resolve: (preset: P, overrides: V) => O,
): (RuleSetChoice<P, V> & { readonly label: string; readonly options: O })[] {
  const sets: RuleSetChoice<P, V>[] = presets.length > 0 ? presets.map((preset) => ({ preset, overrides: base.overrides })) : [base];
  for (const [name, value] of variants) sets.push({ preset: base.preset, overrides: { ...base.overrides, [name]: value } });
  return sets.map((s) => ({ ...s, label: ruleSetLabel(s), options: resolve(s.preset, s.overrides) }));
}
