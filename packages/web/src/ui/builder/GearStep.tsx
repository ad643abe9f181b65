import type { Gear } from '../../lib/rules';
import { problemsIn, type Draft, type DraftCheck } from '../../lib/draft';
import { Problems, SelectField, TextField } from '../fields';
import { ListEditor } from './ListEditor';
import { blankGear, focusSoon, type At, type Edit } from './shared';

export function GearStep(props: { draft: Draft; edit: Edit; at: At; check: DraftCheck }) {
  const s = props.draft.sheet;
  const linkProblems = problemsIn(props.check, 'gear').filter((p) => p.path.startsWith('skills'));
  const missing = s.skills.flatMap((k) => [
    ...(k.weapon && !s.gear.some((g) => g.type === 'weapon' && g.name.toLowerCase() === k.weapon!.toLowerCase()) ? [{ type: 'weapon' as const, name: k.weapon }] : []),
    ...(k.shield && !s.gear.some((g) => g.type === 'shield' && g.name.toLowerCase() === k.shield!.toLowerCase()) ? [{ type: 'shield' as const, name: k.shield }] : []),
  ]);
  const add = (type: Gear['type']) => {
    props.edit((x) => void x.gear.push(blankGear(type)));
    return `b-gear-${s.gear.length}-name`;
  };
  return (
    <div class="stack">
      <p>A weapon skill starts with its weapon, a shield skill with its shield. Add armor and anything else the character carries.</p>
      <Problems problems={linkProblems} />
      {missing.length > 0 && (
        <p>
          <button type="button" onClick={() => props.edit((x) => void x.gear.push(...missing.map((m) => blankGear(m.type, m.name))))}>
            Add the missing {missing.map((m) => m.name).join(', ')}
          </button>
        </p>
      )}
      <ListEditor
        items={s.gear}
        keyOf={(_, i) => i}
        removeLabel={(g) => `Remove ${g.name || 'item'}`}
        onRemove={(_, i) => props.edit((x) => void x.gear.splice(i, 1))}
        addLabel="+ Weapon"
        onAdd={() => add('weapon')}
        moreAdds={(['shield', 'armor', 'item'] as const).map((t) => (
          <button key={t} type="button" onClick={() => focusSoon(add(t))}>
            {{ shield: '+ Shield', armor: '+ Armor', item: '+ Other item' }[t]}
          </button>
        ))}
        fields={(g, i) => (
          <>
          <TextField id={`b-gear-${i}-name`} label="Item" value={g.name} onInput={(v) => props.edit((x) => void (x.gear[i]!.name = v))} problems={props.at(`gear[${i}].name`)} />
          <SelectField
            id={`b-gear-${i}-type`}
            label="Kind"
            value={g.type}
            options={[
              { value: 'weapon', label: 'Weapon' },
              { value: 'shield', label: 'Shield' },
              { value: 'armor', label: 'Armor' },
              { value: 'item', label: 'Other item' },
            ]}
            onChange={(v) => props.edit((x) => void (x.gear[i] = blankGear(v, g.name)))}
          />
          {g.type === 'weapon' && (
            <>
              <SelectField
                id={`b-gear-${i}-size`}
                label="Size"
                value={g.size}
                options={[
                  { value: 'small', label: 'Small' },
                  { value: 'one-handed', label: 'One-handed' },
                  { value: 'two-handed', label: 'Two-handed' },
                ]}
                onChange={(v) => props.edit((x) => void ((x.gear[i] as Extract<Gear, { type: 'weapon' }>).size = v))}
              />
              <SelectField
                id={`b-gear-${i}-range`}
                label="Range"
                value={g.range}
                options={[
                  { value: 'melee', label: 'Hand-to-hand' },
                  { value: 'ranged', label: 'Ranged' },
                ]}
                onChange={(v) => props.edit((x) => void ((x.gear[i] as Extract<Gear, { type: 'weapon' }>).range = v))}
              />
              <TextField id={`b-gear-${i}-group`} label="Group" value={g.group} onInput={(v) => props.edit((x) => void ((x.gear[i] as Extract<Gear, { type: 'weapon' }>).group = v || 'blades'))} />
            </>
          )}
          {g.type === 'shield' && (
            <SelectField
              id={`b-gear-${i}-weight`}
              label="Weight"
              value={g.weight}
              options={[
                { value: 'light', label: 'Light' },
                { value: 'heavy', label: 'Heavy' },
              ]}
              onChange={(v) => props.edit((x) => void ((x.gear[i] as Extract<Gear, { type: 'shield' }>).weight = v))}
            />
          )}
          </>
        )}
      />
    </div>
  );
}