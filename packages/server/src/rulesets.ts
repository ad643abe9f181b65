import { refusalOf, registeredRulesets, type AnyDecider, type TableSetup } from '@personae/core';
import type { TableSettings } from './store/types';

/** The ruleset a table gets when its creator names none, and that tables made before rulesets existed play. */
export const DEFAULT_RULESET = 'personae';

export type SetupCheck = { ok: true } | { ok: false; message: string; field: string };

/**
 * The game domains a server hosts: one decider per table, built for the table's ruleset and setup
 * (preset and options). Rulesets register themselves with the core registry; a server may also host
 * one domain of its own (tests, small tools) in place of the registry.
 */
export interface TableDomains {
  /** Ids of the rulesets tables can be created with. */
  ids(): readonly string[];
  /** Checks a ruleset id and a setup before a table is made or its setup changed. */
  check(ruleset: string, setup: TableSetup): SetupCheck;
  /** The decider of a table; throws when the ruleset is not hosted or its setup is refused. */
  decider(ruleset: string, setup: TableSetup): AnyDecider;
}

/** The preset and options a table's settings hold, as the ruleset's `table` factory takes them. */
export function setupOf(settings: TableSettings): TableSetup {
  return {
    ...(settings.preset !== undefined ? { preset: settings.preset } : {}),
    ...(settings.options !== undefined ? { options: settings.options } : {}),
  };
}

function unknownRuleset(ruleset: string, ids: readonly string[]): SetupCheck {
  return { ok: false, field: 'ruleset', message: `ruleset: "${ruleset}" is not a ruleset this server hosts; known rulesets: ${ids.join(', ')}` };
}

/** Every ruleset of the core registry that has a table domain (only those named in `only`, if given). */
export function registryDomains(only?: readonly string[]): TableDomains {
  const hosted = () => registeredRulesets().filter((r) => r.table !== undefined && (only === undefined || only.includes(r.id)));
  const ids = () => hosted().map((r) => r.id);
  return {
    ids,
    check(ruleset, setup) {
      const r = hosted().find((h) => h.id === ruleset);
      if (!r?.table) return unknownRuleset(ruleset, ids());
      if (setup.preset !== undefined && !r.presets.includes(setup.preset)) {
        return { ok: false, field: 'preset', message: `preset: "${setup.preset}" is not a preset of ${r.title}; its presets are: ${r.presets.join(', ')}` };
      }
      try {
        r.resolveOptions(setup.preset, setup.options ?? {});
        return { ok: true };
      } catch (error) {
        const refusal = refusalOf(error);
        if (!refusal) throw error;
        const field = refusal.field ? refusal.field : 'options';
        return { ok: false, field: field === 'preset' || field.startsWith('options') ? field : `options.${field}`, message: refusal.message };
      }
    },
    decider(ruleset, setup) {
      const r = hosted().find((h) => h.id === ruleset);
      if (!r?.table) throw new Error(`table of ruleset "${ruleset}", which this server does not host (known: ${ids().join(', ')})`);
      return r.table(setup);
    },
  };
}

/** One domain, hosted as the default ruleset, without presets or options. */
export function singleDomain(decider: AnyDecider): TableDomains {
  return {
    ids: () => [DEFAULT_RULESET],
    check(ruleset, setup) {
      if (ruleset !== DEFAULT_RULESET) return unknownRuleset(ruleset, [DEFAULT_RULESET]);
      if (setup.preset !== undefined || setup.options !== undefined) {
        return { ok: false, field: setup.preset !== undefined ? 'preset' : 'options', message: 'this server hosts one domain without presets or options' };
      }
      return { ok: true };
    },
    decider(ruleset) {
      if (ruleset !== DEFAULT_RULESET) throw new Error(`table of ruleset "${ruleset}", which this server does not host`);
      return decider;
    },
  };
}
