import type { Citation } from './citation';
import type { AnyDecider } from './decider';

/** One problem with a sheet or a file: the field (a dotted path), the value found, the rule broken. */
export interface Problem {
  readonly field: string;
  readonly message: string;
  readonly value?: unknown;
  readonly rule?: Citation;
}

export type SheetCheck<Sheet, Derived> =
  | { readonly ok: true; readonly sheet: Sheet; readonly derived: Derived; readonly warnings: readonly Problem[] }
  | { readonly ok: false; readonly problems: readonly Problem[] };

/** A table option as people and tools see it: its name, its values and default, where it comes from. */
export interface OptionDescriptor {
  readonly name: string;
  /** The words shown to people. */
  readonly title: string;
  readonly description: string;
  /** For options with named values; absent for numbers and booleans. */
  readonly values?: readonly string[];
  readonly kind: 'enum' | 'boolean' | 'integer' | 'number';
  readonly default: string | number | boolean;
  /** Topic for grouping on screens ("Criticals", "Injury", ...). */
  readonly topic: string;
  readonly source?: Citation;
}

/** A seed document a ruleset implements, for attribution. */
export interface RulesetDocument {
  readonly file: string;
  readonly title: string;
  readonly license: 'OGL-1.0a' | 'CC-BY-4.0' | string;
}

/** How a table of a ruleset is set up: one of its presets and the options set differently from it. */
export interface TableSetup {
  readonly preset?: string;
  readonly options?: Readonly<Record<string, unknown>>;
}

/**
 * What a ruleset module gives the hosts (the table server, the CLI, the web app). The core never
 * imports a ruleset: rulesets register themselves, and each host looks them up by `id`.
 */
export interface Ruleset<Options = unknown, Sheet = unknown, Derived = unknown> {
  /** Stable id stored with every table: "personae", "d100", "lucidity". */
  readonly id: string;
  readonly title: string;
  readonly documents: readonly RulesetDocument[];
  /** Named option sets; the first is the default. */
  readonly presets: readonly string[];
  readonly options: readonly OptionDescriptor[];
  /** The options in force for a preset and overrides; throws a RuleError naming a bad option. */
  resolveOptions(preset?: string, overrides?: Readonly<Record<string, unknown>>): Options;
  readonly sheet: {
    /** The published JSON Schema of the sheet format. */
    jsonSchema(): object;
    /** Checks a parsed sheet (YAML or JSON already read) and derives its values. */
    check(raw: unknown, options?: Options): SheetCheck<Sheet, Derived>;
  };
  /**
   * The table domain the server runs for a table of this ruleset, built for the table's preset and
   * options (already checked with `resolveOptions`). Absent while a ruleset is library-only.
   */
  readonly table?: (setup: TableSetup) => AnyDecider;
  /**
   * The dice one of the table's events records, in order: what a secret roll's commitment binds, so
   * that a revealed roll can be checked against the dice it shows (`personae verify --log`).
   * Absent: the table has no such reveals, or they carry their dice another way.
   */
  readonly rolledDice?: (event: unknown) => number[];
}

export type AnyRuleset = Ruleset<any, any, any>;

const registry = new Map<string, AnyRuleset>();

export function registerRuleset(ruleset: AnyRuleset): void {
  const existing = registry.get(ruleset.id);
  if (existing && existing !== ruleset) throw new Error(`a different ruleset is already registered as "${ruleset.id}"`);
  registry.set(ruleset.id, ruleset);
}

export function findRuleset(id: string): AnyRuleset | undefined {
  return registry.get(id);
}

export function registeredRulesets(): readonly AnyRuleset[] {
  return [...registry.values()];
}
