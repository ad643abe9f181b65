/**
 * Where a rule comes from: the seed document's file name and the heading of its section. Every rule
 * a ruleset implements, and every refusal that applies one, carries its citation so the table can
 * say why.
 */
export interface Citation {
  /** The document's file name, e.g. "personae-core-2011.txt". */
  readonly document: string;
  /** The section heading as the document spells it. */
  readonly section: string;
}

export function cite(document: string, section: string): Citation {
  return { document, section };
}

export function formatCitation(c: Citation): string {
  return `${c.document} "${c.section}"`;
}

/**
 * A registry of a ruleset's rules by stable id, so that code, refusals and the generated rules map
 * name the same rule the same way. `defineRules` keeps the ids as a literal type: a typo in a rule id
 * is a compile error.
 */
export interface RuleEntry extends Citation {
  /** One sentence in the project's own words. */
  readonly summary: string;
}

export function defineRules<const R extends Record<string, RuleEntry>>(rules: R): R {
  return rules;
}
