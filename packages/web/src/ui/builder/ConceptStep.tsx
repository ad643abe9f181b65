import { ROLES, TIERS, potentialFromSum, type TableOptions } from '../../lib/rules';
import type { Draft } from '../../lib/draft';
import { NumberField, SelectField, TextField } from '../fields';
import type { At, Edit } from './shared';

export function ConceptStep(props: { draft: Draft; edit: Edit; at: At; options: TableOptions; gm: boolean; onImport: (f: File) => void }) {
  const s = props.draft.sheet;
  const roles = props.gm ? ROLES : (['main', 'companion'] as const);
  return (
    <div class="stack">
      <p>Who is the character? A name and a few words of concept are enough to start. The creation points set the starting Potential.</p>
      <div class="row">
        <TextField class="grow" id="b-name" label="Name" value={s.name} onInput={(v) => props.edit((x) => void (x.name = v))} problems={props.at('name')} />
        <TextField class="grow" id="b-concept" label="Concept" placeholder="Dwarf Shieldwall Veteran" value={s.concept} onInput={(v) => props.edit((x) => void (x.concept = v))} problems={props.at('concept')} />
      </div>
      <div class="row">
        <SelectField
          id="b-role"
          label="Role"
          value={s.role}
          options={roles.map((r) => ({ value: r, label: { main: 'Main character', companion: 'Companion', ally: 'Ally (supporting)', adversary: 'Adversary (supporting)' }[r] }))}
          onChange={(v) =>
            props.edit((x) => {
              x.role = v;
              if (v === 'main') delete x.tier;
              else x.tier ??= v === 'companion' ? 'minion' : 'major';
              if (v === 'companion') x.creationPoints = 10;
            })
          }
          problems={props.at('role')}
        />
        {s.role !== 'main' && (
          <SelectField id="b-tier" label="Tier" value={s.tier ?? 'major'} options={TIERS.map((t) => ({ value: t, label: t }))} onChange={(v) => props.edit((x) => void (x.tier = v))} problems={props.at('tier')} />
        )}
        <NumberField
          id="b-cp"
          label="Creation points"
          value={s.creationPoints}
          min={5}
          max={200}
          onChange={(v) => props.edit((x) => void (x.creationPoints = Math.trunc(v)))}
          hint={`Starting Potential ${potentialFromSum(s.creationPoints, props.options)} once the points are spent on attributes (step 3); the table uses ${props.options.creationPoints}.`}
          problems={props.at('creationPoints')}
        />
      </div>
      <TextField id="b-player" label="Player (optional)" value={s.player ?? ''} onInput={(v) => props.edit((x) => (v ? (x.player = v) : delete x.player))} />
      <div class="field">
        <label for="b-import">Or open a sheet file (YAML or JSON)</label>
        <input
          id="b-import"
          type="file"
          accept=".yaml,.yml,.json,application/json,application/yaml,text/yaml"
          onChange={(e) => {
            const f = e.currentTarget.files?.[0];
            if (f) props.onImport(f);
            e.currentTarget.value = '';
          }}
        />
      </div>
    </div>
  );
}
