import { useMemo } from 'preact/hooks';
import { AFFINITIES, AILMENT_NAMES, ailmentTitle, batonAdvantages, LOCATIONS, REGULAR_ELEMENTS, ELEMENTS, TRAINING, WEAPON_CLASSES } from '@personae/d100';
import { Check, NumberField, OptionalNumberField, Problems, SelectField, TextField } from '../../ui/fields';
import { BuilderForm, ErrorLine, fieldProblems, useDraft } from '../shared';
import { checkDraft, isBallistic, newD100Draft, SCORE_KEYS, SCORE_LABEL, type D100Draft, type Score } from './model';

type Weapon = D100Draft['weapons'][number];

/** A weapon's optional number: blank leaves it out of the sheet. */
function setOptional<K extends 'range' | 'clip' | 'reload' | 'spareLoads' | 'burst' | 'longRange' | 'criticalAilment'>(w: Weapon, field: K, v: Weapon[K] | undefined) {
  if (v === undefined) delete w[field];
  else w[field] = v;
}

const opts = <T extends string>(values: readonly T[]) => values.map((v) => ({ value: v, label: v }));

/**
 * The d100 character builder: the ten Scores and their Bonuses, Realisation and Fate Points, skills,
 * affinities, an optional Persona, Armour, weapons and Stress, checked live by the ruleset's own sheet
 * check (d100-combat-rules.txt) with each problem beside its field. The server checks the sheet again.
 */
export function D100Builder(props: { gm: boolean; /** The characters at the table, offered as Confidants. */ names?: readonly string[]; onAdd: (sheet: D100Draft) => Promise<void>; onClose: () => void }) {
  const draft = useDraft<D100Draft>(newD100Draft);
  const { value: d, touched, edit } = draft;
  const check = useMemo(() => checkDraft(d), [d]);
  const at = (field: string) => (touched || field === 'name' ? fieldProblems(check.problems, field) : []);
  const derived = check.derived;

  return (
    <BuilderForm
      prefix="d1b"
      title="Build a d100 character"
      class="d100-builder"
      problems={check.problems}
      derived={derived && `Wound tracks: Light ${derived.woundMax.light}, Heavy ${derived.woundMax.heavy}, Deadly ${derived.woundMax.deadly} · Fate Points ${derived.fatePointPool} · Initiative ${derived.initiative} · Move ${derived.movement.basicMove}, run ${derived.movement.run} · Spirit ${derived.spiritMax}, Exertion ${derived.exertionMax}`}
      draft={draft}
      onAdd={() => props.onAdd(d)}
      onClose={props.onClose}
    >
      <TextField id="d1b-name" label="Name" value={d.name} onInput={(v) => edit((x) => (x.name = v))} problems={touched ? at('name') : []} maxLength={80} />
      <div class="row">
        <SelectField id="d1b-kind" label="Kind" value={d.kind} options={opts(['evoker', 'shadow', 'npc'] as const)} onChange={(v) => edit((x) => (x.kind = v))} problems={at('kind')} />
        {props.gm && <TextField id="d1b-side" label="Side" hint="Characters on one side are allies" value={d.side} onInput={(v) => edit((x) => (x.side = v))} problems={at('side')} />}
        {props.gm && <Check id="d1b-hidden" label="Hidden from the players" checked={d.hidden} onChange={(v) => edit((x) => (x.hidden = v))} />}
      </div>

      <fieldset>
        <legend>Scores (the Bonus is the tens digit)</legend>
        <div class="attr-grid">
          {SCORE_KEYS.map((s: Score) => (
            <NumberField
              key={s}
              id={`d1b-score-${s}`}
              label={SCORE_LABEL[s]}
              value={d.scores[s]}
              min={0}
              max={100}
              hint={derived ? `Bonus ${derived.bonuses[s]}` : undefined}
              onChange={(v) => edit((x) => (x.scores[s] = v))}
              problems={at(`scores.${s}`)}
            />
          ))}
        </div>
      </fieldset>

      <div class="row">
        <NumberField id="d1b-realisation" label="Realisation" value={d.realisation} min={0} max={100} hint={derived ? `Fate Point pool ${derived.fatePointPool}` : undefined} onChange={(v) => edit((x) => (x.realisation = v))} problems={at('realisation')} />
        <NumberField id="d1b-rank" label="Evoker Rank" value={d.evokerRank ?? derived?.evokerRank ?? 0} min={0} max={10} hint={derived ? `Spirit ${derived.spiritMax}, Exertion ${derived.exertionMax}` : undefined} onChange={(v) => edit((x) => (x.evokerRank = v))} problems={at('evokerRank')} />
        <NumberField id="d1b-fate" label="Fate Points left" value={d.fatePoints ?? derived?.fatePointPool ?? 0} min={0} onChange={(v) => edit((x) => (x.fatePoints = v))} problems={at('fatePoints')} />
        <NumberField id="d1b-stress" label="Stress" value={d.stress} min={0} onChange={(v) => edit((x) => (x.stress = v))} problems={at('stress')} />
        <NumberField id="d1b-unnatural-t" label="Unnatural Toughness (0: none)" value={d.unnaturalToughness ?? 0} min={0} max={10} hint={derived ? `Defense (body) ${derived.defense.body}` : undefined} onChange={(v) => edit((x) => (v ? (x.unnaturalToughness = v) : delete x.unnaturalToughness))} problems={at('unnaturalToughness')} />
        <Check id="d1b-flight" label="Can fly (altitude bands)" checked={!!d.flight} onChange={(v) => edit((x) => (v ? (x.flight = true) : delete x.flight))} />
        <NumberField id="d1b-size" label="Size (categories from Normal)" value={d.size ?? 0} min={-4} max={4} hint="attacks on it: +1 Advantage per category larger, +1 Disadvantage per category smaller" onChange={(v) => edit((x) => (v ? (x.size = v) : delete x.size))} problems={at('size')} />
        <NumberField id="d1b-arcana" label="Arcana Level" value={d.arcanaLevel ?? 0} min={0} max={10} hint="4: Analyse Target; 7: Advanced" onChange={(v) => edit((x) => (x.arcanaLevel = v))} problems={at('arcanaLevel')} />
      </div>

      <fieldset>
        <legend>Skills</legend>
        {d.skills.map((s, i) => (
          <div class="row" key={i}>
            <TextField id={`d1b-skill-${i}-name`} label="Skill" value={s.name} onInput={(v) => edit((x) => (x.skills[i]!.name = v))} problems={at(`skills.${i}.name`)} />
            <TextField id={`d1b-skill-${i}-focus`} label="Focus" value={s.focus ?? ''} onInput={(v) => edit((x) => (v ? (x.skills[i]!.focus = v) : delete x.skills[i]!.focus))} />
            <SelectField id={`d1b-skill-${i}-score`} label="Score" value={s.score} options={SCORE_KEYS.map((k) => ({ value: k, label: SCORE_LABEL[k] }))} onChange={(v) => edit((x) => (x.skills[i]!.score = v))} />
            <SelectField id={`d1b-skill-${i}-training`} label="Training" value={s.training} options={opts(TRAINING)} onChange={(v) => edit((x) => (x.skills[i]!.training = v))} />
            <span class="small">{derived?.skills[i] ? `target ${derived.skills[i]!.target}` : ''}</span>
            <button type="button" class="quiet" onClick={() => edit((x) => x.skills.splice(i, 1))}>
              Remove skill {i + 1}
            </button>
          </div>
        ))}
        <button type="button" class="quiet" onClick={() => edit((x) => x.skills.push({ name: '', score: 'agility', training: 'known' }))}>
          + Add a skill
        </button>
      </fieldset>

      <fieldset>
        <legend>Affinities</legend>
        <div class="attr-grid">
          {REGULAR_ELEMENTS.map((el) => (
            <SelectField key={el} id={`d1b-aff-${el}`} label={el} value={(d.affinities[el] ?? 'normal') as (typeof AFFINITIES)[number]} options={opts(AFFINITIES)} onChange={(v) => edit((x) => (x.affinities[el] = v))} problems={at(`affinities.${el}`)} />
          ))}
        </div>
      </fieldset>

      <fieldset>
        <legend>Persona</legend>
        <Check id="d1b-persona" label="Has a Persona" checked={!!d.persona} onChange={(v) => edit((x) => (v ? (x.persona = { name: '', wounds: 3, affinities: {} }) : delete x.persona))} />
        {d.persona && (
          <div class="row">
            <TextField id="d1b-persona-name" label="Persona name" value={d.persona.name} onInput={(v) => edit((x) => (x.persona!.name = v))} problems={at('persona.name')} />
            <NumberField id="d1b-persona-wounds" label="Persona wounds" value={d.persona.wounds} min={1} max={100} onChange={(v) => edit((x) => (x.persona!.wounds = v))} problems={at('persona.wounds')} />
          </div>
        )}
        <ErrorLine id="d1b-persona-err" error={fieldProblems(check.problems, 'persona').filter((p) => p.path === 'persona').map((p) => `${p.message}${p.source ? ` (${p.source})` : ''}`).join(' ') || null} />
      </fieldset>

      <fieldset>
        <legend>Armour by location</legend>
        <div class="attr-grid">
          {LOCATIONS.map((l) => (
            <NumberField key={l} id={`d1b-armour-${l}`} label={l} value={d.armour[l] ?? 0} min={0} max={50} hint={derived ? `defense ${derived.defense[l]}` : undefined} onChange={(v) => edit((x) => (x.armour[l] = v))} problems={at(`armour.${l}`)} />
          ))}
        </div>
      </fieldset>

      <fieldset>
        <legend>Weapons</legend>
        {d.weapons.map((w, i) => (
          <div class="row" key={i}>
            <TextField id={`d1b-weapon-${i}-name`} label="Weapon" value={w.name} onInput={(v) => edit((x) => (x.weapons[i]!.name = v))} problems={at(`weapons.${i}.name`)} />
            <SelectField id={`d1b-weapon-${i}-class`} label="Class" value={w.class} options={opts(WEAPON_CLASSES)} onChange={(v) => edit((x) => (x.weapons[i]!.class = v))} />
            <SelectField id={`d1b-weapon-${i}-element`} label="Element" value={w.element as (typeof ELEMENTS)[number]} options={opts(ELEMENTS)} onChange={(v) => edit((x) => (x.weapons[i]!.element = v))} />
            <NumberField id={`d1b-weapon-${i}-damage`} label="Damage" value={w.damage} min={0} max={100} onChange={(v) => edit((x) => (x.weapons[i]!.damage = v))} problems={at(`weapons.${i}.damage`)} />
            {w.class !== 'melee' && <OptionalNumberField id={`d1b-weapon-${i}-range`} label="Range (m)" value={w.range} min={0} onChange={(v) => edit((x) => setOptional(x.weapons[i]!, 'range', v))} problems={at(`weapons.${i}.range`)} />}
            {/* a Ballistic weapon's ammunition ("Equipment Actions", Reload); shown on another class while set, so its problem is seen */}
            {(isBallistic(w.class) || w.clip !== undefined) && <OptionalNumberField id={`d1b-weapon-${i}-clip`} label="Clip (shots)" hint="blank: shots not counted" value={w.clip} min={1} max={200} onChange={(v) => edit((x) => setOptional(x.weapons[i]!, 'clip', v))} problems={at(`weapons.${i}.clip`)} />}
            {(isBallistic(w.class) || w.reload !== undefined) && <OptionalNumberField id={`d1b-weapon-${i}-reload`} label="Reload (Actions)" hint="blank: 1" value={w.reload} min={1} max={10} onChange={(v) => edit((x) => setOptional(x.weapons[i]!, 'reload', v))} problems={at(`weapons.${i}.reload`)} />}
            {(isBallistic(w.class) || w.spareLoads !== undefined) && <OptionalNumberField id={`d1b-weapon-${i}-spare`} label="Spare loads" hint="blank: as many as needed" value={w.spareLoads} min={0} max={100} onChange={(v) => edit((x) => setOptional(x.weapons[i]!, 'spareLoads', v))} problems={at(`weapons.${i}.spareLoads`)} />}
            {/* Burst Attack ("Standard Attack and other Attack Actions"): a ranged weapon's rating; shown on a melee one while set, so its problem is seen */}
            {(w.class !== 'melee' || w.burst !== undefined) && <OptionalNumberField id={`d1b-weapon-${i}-burst`} label="Burst rating" hint="blank: no Burst Attack" value={w.burst} min={1} onChange={(v) => edit((x) => setOptional(x.weapons[i]!, 'burst', v))} problems={at(`weapons.${i}.burst`)} />}
            {(isBallistic(w.class) || w.longRange) && (
              <div class="field">
                <Check id={`d1b-weapon-${i}-long`} label="Long-ranged (GM approved: reaches between High and lower bands)" checked={!!w.longRange} onChange={(v) => edit((x) => setOptional(x.weapons[i]!, 'longRange', v || undefined))} />
                <Problems id={`d1b-weapon-${i}-long-err`} problems={at(`weapons.${i}.longRange`)} />
              </div>
            )}
            {/* option magicCritical=signature-ailment: the spell's Critical Effect */}
            {(w.class === 'magic' || w.criticalAilment !== undefined) && <SelectField id={`d1b-weapon-${i}-critical`} label="Critical ailment" hint="a magic Critical Hit gives it under magicCritical=signature-ailment" value={w.criticalAilment ?? ''} options={[{ value: '', label: 'none' }, ...AILMENT_NAMES.map((a) => ({ value: a, label: ailmentTitle(a) }))]} onChange={(v) => edit((x) => setOptional(x.weapons[i]!, 'criticalAilment', v || undefined))} problems={at(`weapons.${i}.criticalAilment`)} />}
            <button type="button" class="quiet" onClick={() => edit((x) => x.weapons.splice(i, 1))}>
              Remove weapon {i + 1}
            </button>
          </div>
        ))}
        <button type="button" class="quiet" onClick={() => edit((x) => x.weapons.push({ name: '', class: 'melee', element: 'melee', damage: 4, tier: 1 }))}>
          + Add a weapon
        </button>
      </fieldset>

      <fieldset>
        <legend>Social Links (Baton Pass)</legend>
        <p class="small">A One More may be passed to a Confidant with rank 1 or more; the receiver gains 1 Advantage, one more at ranks 4, 7 and 10.</p>
        {props.names && props.names.length > 0 && (
          <datalist id="d1b-confidants">
            {props.names.map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
        )}
        {d.socialLinks.map((l, i) => (
          <div class="row" key={i}>
            <TextField id={`d1b-link-${i}-name`} label="Confidant" hint="a character's name or id" list="d1b-confidants" value={l.name} onInput={(v) => edit((x) => (x.socialLinks[i]!.name = v))} problems={at(`socialLinks.${i}.name`)} maxLength={80} />
            <NumberField id={`d1b-link-${i}-rank`} label="Rank" value={l.rank} min={0} max={10} hint={l.rank >= 1 ? `Baton Pass: +${batonAdvantages(l.rank)} Advantage${batonAdvantages(l.rank) === 1 ? '' : 's'}` : 'rank 0: no Baton Pass'} onChange={(v) => edit((x) => (x.socialLinks[i]!.rank = v))} problems={at(`socialLinks.${i}.rank`)} />
            <button type="button" class="quiet" onClick={() => edit((x) => x.socialLinks.splice(i, 1))}>
              Remove Social Link {i + 1}
            </button>
          </div>
        ))}
        <button type="button" class="quiet" onClick={() => edit((x) => x.socialLinks.push({ name: '', rank: 1 }))}>
          + Add a Social Link
        </button>
      </fieldset>
    </BuilderForm>
  );
}
