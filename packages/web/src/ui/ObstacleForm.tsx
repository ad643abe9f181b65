import { useState } from 'preact/hooks';
import { ChoiceField } from '../rulesets/shared';
import { ATTRIBUTES, ATTRIBUTE_LABELS, type AttributeName, type TableView } from '../lib/rules';
import { Check, NumberField, TextField } from './fields';

/** A new encounter-only id from the name: lower-case words joined by dashes, made unique among the ids in view. */
export function obstacleId(name: string, taken: readonly string[]): string {
  const base = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'obstacle';
  let id = base;
  for (let n = 2; taken.includes(id); n++) id = `${base}-${n}`;
  return id;
}

/**
 * The GM brings an obstacle or hazard into the scene as an identity with a pool of its own
 * (personae-core-2011.txt "Obstacles"): a name, one skill as its pool, and, under option
 * obstacleHealth = hits, the hits that overcome it. Hidden, players see only its name and condition.
 */
export function ObstacleForm(props: { view: TableView; run: (inner: unknown, hidden?: boolean) => Promise<void> }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'obstacle' | 'hazard'>('obstacle');
  const [skill, setSkill] = useState('');
  const [dice, setDice] = useState(3);
  const [attribute, setAttribute] = useState<AttributeName>('stature');
  const [health, setHealth] = useState(0);
  const [hidden, setHidden] = useState(false);
  const byHits = props.view.options.obstacleHealth === 'hits';
  const ready = name.trim() !== '' && skill.trim() !== '';
  const add = async () => {
    const id = obstacleId(name, props.view.characters.map((c) => c.id));
    const obstacle = { kind, hidden, ...(byHits && health > 0 ? { health } : {}) };
    await props.run({ type: 'join', actor: 'gm', character: { id, name: name.trim(), skills: [{ name: skill.trim(), dice, attribute }], obstacle } });
    setName('');
    setSkill('');
  };
  return (
    <div class="card stack" id="add-obstacle">
      <h3>Add an obstacle or hazard</h3>
      <p class="small muted">It answers challenges with its pool and may issue its own when you have it act; it takes no turn and banks no criticals.</p>
      <div class="row">
        <TextField id="obstacle-name" class="grow" label="Name" value={name} onInput={setName} maxLength={80} placeholder="The barred gate" />
        <ChoiceField id="obstacle-kind" label="Kind" value={kind} choices={[{ value: 'obstacle', label: 'Obstacle' }, { value: 'hazard', label: 'Hazard' }]} onChange={(v) => setKind(v === 'hazard' ? 'hazard' : 'obstacle')} />
      </div>
      <div class="row">
        <TextField id="obstacle-skill" class="grow" label="Its pool (a skill)" value={skill} onInput={setSkill} maxLength={80} placeholder="Iron bars" />
        <NumberField id="obstacle-dice" label="Dice" value={dice} min={1} max={30} onChange={setDice} />
        <ChoiceField id="obstacle-attribute" label="Attribute" value={attribute} choices={ATTRIBUTES.map((a) => ({ value: a, label: ATTRIBUTE_LABELS[a] }))} onChange={(v) => setAttribute(v as AttributeName)} />
        {byHits && <NumberField id="obstacle-health" label="Hits to overcome it" hint="0: it sustains none" value={health} min={0} max={100} onChange={setHealth} />}
      </div>
      <div class="row">
        <Check id="obstacle-hidden" label="Keep it hidden: players see its name and condition only" checked={hidden} onChange={setHidden} />
        <button type="button" disabled={!ready} onClick={() => void add()}>
          Add to the scene
        </button>
      </div>
    </div>
  );
}
