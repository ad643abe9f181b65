/**
 * How a ruleset's table treats each point of its rule inventory (shared/notes/rulesets/): the terms
 * its seed uses without defining and the places where it says one thing two ways. Each point is a
 * typed option; one fixed reading in code, where the seed or its other rules leave only one that
 * works; a GM ruling the table records; or a record on the sheet with nothing the engine could compute.
 */
export type OpenPointHandling<O extends string> =
  | { readonly kind: 'option'; readonly options: readonly O[] }
  | { readonly kind: 'fixed' | 'gm' | 'record'; readonly where: string; readonly reason: string };

export interface OpenPoint<O extends string> {
  readonly id: string;
  readonly term: string;
  readonly handling: OpenPointHandling<O>;
}

/** The four ways of treating a point, for a ruleset whose options are named `O`. */
export function openPointKinds<O extends string>() {
  const other =
    (kind: 'fixed' | 'gm' | 'record') =>
    (id: string, term: string, where: string, reason: string): OpenPoint<O> => ({ id, term, handling: { kind, where, reason } });
  return {
    opt: (id: string, term: string, ...options: O[]): OpenPoint<O> => ({ id, term, handling: { kind: 'option', options } }),
    fixed: other('fixed'),
    gm: other('gm'),
    record: other('record'),
  };
}

/** One row of the generated table of open points; `option` writes an option's name (and, say, its default). */
export function openPointRow<O extends string>(p: OpenPoint<O>, option: (name: O) => string): string {
  const h = p.handling;
  if (h.kind === 'option') return `| ${p.id} | ${p.term} | option ${h.options.map(option).join(', ')} | |`;
  return `| ${p.id} | ${p.term} | ${h.kind === 'fixed' ? 'one reading' : h.kind === 'gm' ? 'GM ruling' : 'record only'}: ${h.where} | ${h.reason} |`;
}
