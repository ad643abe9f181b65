import { DEFENSE_SKILLS, ATTRIBUTE_LABELS, EFFECTS, EFFECT_TYPES, POWER_DURATIONS, attributeSum, describeEffect, effectSize, potentialFromSum, weaponAttributeNote, type AbilityEffect, type CharacterSheet, type TableOptions } from '../../lib/rules';
import { budgets, ownSkills, problemsIn, setDefenseDice, type Budget, type Draft, type DraftCheck } from '../../lib/draft';
import { Check, NumberField, Problems, SelectField, TextField } from '../fields';
import { ListEditor } from './ListEditor';
import { ATTRIBUTE_OPTIONS, blankGear, type At, type Edit } from './shared';

// personae-core-2011.txt, "Step 5: Define Traits": skills, special abilities, powers and talents,
// each list within the maximum the attributes set in step 4.

const EFFECT_KINDS = EFFECT_TYPES.filter((t) => t !== 'critical-spend').map((t) => ({ value: t, label: EFFECTS[t].label }));

function makeEffect(type: AbilityEffect['type'], n: number, skills: string[]): AbilityEffect {
  const scope = skills.length ? { scope: { skills, role: 'both' as const } } : {};
  switch (type) {
    case 'bonus-result':
      return { type, amount: n, ...scope };
    case 'bonus-dice':
      return { type, dice: n, ...scope };
    case 'reroll':
    case 'force-reroll':
    case 'misdirection':
      return { type, dice: n, keep: 'second', mayTouchHighest: false, ...scope };
    case 'taunt':
      return { type, ...scope };
    case 'ignore-attacker-dice':
      return { type, dice: n };
    case 'extra-hits':
      return { type, hits: n, ...scope };
    case 'extra-hits-before-injured':
      return { type, hits: n };
    case 'steer':
      return { type, steps: Math.min(2, n), ...scope };
    default:
      return { type: 'described' };
  }
}

function scopeSkills(e: AbilityEffect): string[] {
  return 'scope' in e && e.scope?.skills ? e.scope.skills : [];
}

interface ListProps {
  sheet: CharacterSheet;
  edit: Edit;
  at: At;
  check: DraftCheck;
}

export function TraitStep(props: { draft: Draft; edit: Edit; at: At; check: DraftCheck; options: TableOptions }) {
  const s = props.draft.sheet;
  const b = budgets(props.draft, props.options);
  const counter = (k: Budget['key']) => {
    const x = b.find((y) => y.key === k)!;
    return <span class={x.used > x.limit ? 'error-text' : 'muted'}>{x.text}</span>;
  };
  const maxDice = potentialFromSum(attributeSum(s.attributes), props.options) + 2;
  const list: ListProps = { sheet: s, edit: props.edit, at: props.at, check: props.check };
  return (
    <div class="stack">
      <section aria-labelledby="skills-h">
        <div class="spread">
          <h3 id="skills-h">Skills</h3>
          <span>
            {counter('skills')} · {counter('prowess')}
          </span>
        </div>
        <p class="small muted">
          A skill starts at 2 dice; dice above 2 come from the Prowess Pool. At most {maxDice} dice on one skill (Potential + 2).
        </p>
        <Problems problems={props.at('skills')} />
        <SkillList {...list} maxDice={maxDice} options={props.options} />
        <DefenseSkills {...list} maxDice={maxDice} />
      </section>
      <section aria-labelledby="abilities-h">
        <div class="spread">
          <h3 id="abilities-h">Special abilities</h3>
          {counter('abilities')}
        </div>
        <p class="small muted">
          One ability may be your culture ability (free). A Quality is always in effect and counts two. Each upgrade adds one to its benefit; each
          limiting condition pays for one upgrade.
        </p>
        <Problems problems={props.at('specialAbilities')} />
        <AbilityList {...list} />
      </section>
      <section aria-labelledby="powers-h">
        <div class="spread">
          <h3 id="powers-h">Powers</h3>
          {counter('powers')}
        </div>
        <p class="small muted">A power affects one target, inflicts at most one hit and lasts Instant or Maintain; each step beyond is an upgrade.</p>
        <Problems problems={props.at('powers')} />
        <PowerList {...list} />
      </section>
      <section aria-labelledby="talents-h">
        <div class="spread">
          <h3 id="talents-h">Talents</h3>
          {counter('talents')}
        </div>
        <p class="small muted">Languages, areas of expertise and resources. Your native language is free.</p>
        <Problems problems={props.at('talents')} />
        <TalentList {...list} />
      </section>
    </div>
  );
}

/** The value of the skill's gear choice: a weapon (w:), a shield (s:), or a new one named after the skill. */
type GearChoice = '' | `w:${string}` | `s:${string}` | 'new-weapon' | 'new-shield';

function SkillList(props: ListProps & { maxDice: number; options: TableOptions }) {
  const s = props.sheet;
  const weapons = s.gear.filter((g) => g.type === 'weapon').map((g) => g.name);
  const shields = s.gear.filter((g) => g.type === 'shield').map((g) => g.name);
  const has = (names: string[], n: string) => names.some((x) => x.toLowerCase() === n.trim().toLowerCase());
  return (
    <ListEditor
      items={ownSkills(s)}
      keyOf={(k) => k.index}
      bad={(k) => props.check.report !== undefined && problemsIn(props.check, 'traits').some((p) => p.path.startsWith(`skills[${k.index}]`))}
      removeLabel={(k) => `Remove skill ${k.skill.name || k.index + 1}`}
      onRemove={(k) => props.edit((x) => void x.skills.splice(k.index, 1))}
      addLabel="+ Add a skill"
      onAdd={() => {
        props.edit((x) => void x.skills.push({ name: '', attribute: 'competence', dice: 2 }));
        return `b-skill-${s.skills.length}-name`;
      }}
      footer={({ skill, index: i }) => {
        // The encounter adds the attribute the table's option attackAttribute gives the weapon: say so here.
        const w = skill.weapon ? s.gear.find((g) => g.type === 'weapon' && g.name.toLowerCase() === skill.weapon!.toLowerCase()) : undefined;
        return w && w.type === 'weapon' ? (
          <p class="small muted" id={`b-skill-${i}-attack`}>
            {weaponAttributeNote(props.options, w, skill.attribute).text}
          </p>
        ) : null;
      }}
      fields={({ skill, index: i }) => {
        const name = skill.name.trim();
        // A weapon or shield skill links to its item here; a new item named after the skill joins the gear
        // (personae-core-2011.txt, "Step 6: Determine Starting Gear": a weapon skill starts with its weapon).
        const options: { value: GearChoice; label: string }[] = [
          { value: '', label: 'None' },
          ...weapons.map((w) => ({ value: `w:${w}` as const, label: `Weapon: ${w}` })),
          ...shields.map((w) => ({ value: `s:${w}` as const, label: `Shield: ${w}` })),
          ...(skill.weapon && !weapons.includes(skill.weapon) ? [{ value: `w:${skill.weapon}` as const, label: `Weapon: ${skill.weapon} (missing)` }] : []),
          ...(skill.shield && !shields.includes(skill.shield) ? [{ value: `s:${skill.shield}` as const, label: `Shield: ${skill.shield} (missing)` }] : []),
          ...(name && !has(weapons, name) ? [{ value: 'new-weapon' as const, label: `A new weapon: ${name}` }] : []),
          ...(name && !has(shields, name) ? [{ value: 'new-shield' as const, label: `A new shield: ${name}` }] : []),
        ];
        const linked = skill.weapon ?? skill.shield;
        return (
          <>
            <TextField id={`b-skill-${i}-name`} label="Skill" value={skill.name} onInput={(v) => props.edit((x) => void (x.skills[i]!.name = v))} problems={props.at(`skills[${i}].name`)} />
            <SelectField id={`b-skill-${i}-attr`} label="Attribute" value={skill.attribute} options={ATTRIBUTE_OPTIONS} onChange={(v) => props.edit((x) => void (x.skills[i]!.attribute = v))} />
            <NumberField
              id={`b-skill-${i}-dice`}
              label="Dice"
              value={skill.dice}
              min={2}
              max={props.maxDice}
              hint={`2 to ${props.maxDice}`}
              onChange={(v) => props.edit((x) => void (x.skills[i]!.dice = Math.trunc(v)))}
              problems={props.at(`skills[${i}].dice`)}
            />
            <SelectField<GearChoice>
              id={`b-skill-${i}-gear`}
              label="Weapon or shield"
              value={skill.weapon ? `w:${skill.weapon}` : skill.shield ? `s:${skill.shield}` : ''}
              options={options}
              hint={linked && (has(weapons, linked) || has(shields, linked)) ? 'Its size and range are set in step 6.' : undefined}
              onChange={(v) =>
                props.edit((x) => {
                  const k = x.skills[i]!;
                  delete k.weapon;
                  delete k.shield;
                  if (v === 'new-weapon' || v === 'new-shield') {
                    const type = v === 'new-weapon' ? 'weapon' : 'shield';
                    x.gear.push(blankGear(type, name));
                    k[type] = name;
                  } else if (v.startsWith('w:')) k.weapon = v.slice(2);
                  else if (v.startsWith('s:')) k.shield = v.slice(2);
                })
              }
              problems={[...props.at(`skills[${i}].weapon`), ...props.at(`skills[${i}].shield`)]}
            />
          </>
        );
      }}
    />
  );
}

function DefenseSkills(props: ListProps & { maxDice: number }) {
  const s = props.sheet;
  return (
    <>
      <h4 style={{ marginTop: '12px' }}>Defense skills (free for everyone)</h4>
      <div class="item-grid">
        {DEFENSE_SKILLS.map((d) => {
          const listed = s.skills.findIndex((k) => k.name.toLowerCase() === d.name.toLowerCase());
          const dice = listed >= 0 ? s.skills[listed]!.dice : 2;
          return (
            <NumberField
              key={d.name}
              id={`b-def-${d.name}`}
              label={`${d.name} (${ATTRIBUTE_LABELS[d.attribute]})`}
              value={dice}
              min={2}
              max={props.maxDice}
              onChange={(v) =>
                props.edit((x) => {
                  const next = setDefenseDice(x, d.name, listed >= 0 ? x.skills[listed]!.attribute : d.attribute, Math.trunc(v));
                  x.skills = next.skills;
                })
              }
              problems={listed >= 0 ? props.at(`skills[${listed}].dice`) : []}
            />
          );
        })}
      </div>
    </>
  );
}

function AbilityList(props: ListProps) {
  const s = props.sheet;
  return (
    <ListEditor
      items={s.specialAbilities}
      keyOf={(_, i) => i}
      bad={(_, i) => problemsIn(props.check, 'traits').some((p) => p.path.startsWith(`specialAbilities[${i}]`))}
      removeLabel={(a, i) => `Remove special ability ${a.name || i + 1}`}
      onRemove={(_, i) => props.edit((x) => void x.specialAbilities.splice(i, 1))}
      addLabel="+ Add a special ability"
      onAdd={() => {
        props.edit((x) => void x.specialAbilities.push({ name: '', conditional: [], culture: false, quality: false, upgrades: 0, effect: { type: 'described' } }));
        return `b-sa-${s.specialAbilities.length}-name`;
      }}
      fields={(a, i) => (
        <>
          <TextField id={`b-sa-${i}-name`} label="Ability" value={a.name} onInput={(v) => props.edit((x) => void (x.specialAbilities[i]!.name = v))} problems={props.at(`specialAbilities[${i}].name`)} />
          <SelectField
            id={`b-sa-${i}-effect`}
            label="Effect"
            value={a.effect.type}
            options={EFFECT_KINDS}
            onChange={(v) => props.edit((x) => void (x.specialAbilities[i]!.effect = makeEffect(v, effectSize(a.effect), scopeSkills(a.effect))))}
          />
          {a.effect.type !== 'described' && (
            <NumberField
              id={`b-sa-${i}-amount`}
              label="Amount"
              value={effectSize(a.effect)}
              min={1}
              max={EFFECTS[a.effect.type].size?.max ?? 10}
              onChange={(v) => props.edit((x) => void (x.specialAbilities[i]!.effect = makeEffect(a.effect.type, Math.max(1, Math.trunc(v)), scopeSkills(a.effect))))}
            />
          )}
          <NumberField
            id={`b-sa-${i}-upgrades`}
            label="Upgrades"
            value={a.upgrades}
            min={0}
            onChange={(v) => props.edit((x) => void (x.specialAbilities[i]!.upgrades = Math.max(0, Math.trunc(v))))}
            problems={props.at(`specialAbilities[${i}].upgrades`)}
          />
          <TextField
            id={`b-sa-${i}-cond`}
            label="Limiting conditions"
            hint="Separate with ;"
            value={a.conditional.join('; ')}
            onInput={(v) =>
              props.edit(
                (x) =>
                  void (x.specialAbilities[i]!.conditional = v
                    .split(';')
                    .map((t) => t.trim())
                    .filter(Boolean)),
              )
            }
          />
        </>
      )}
      footer={(a, i) => (
        <>
          <Check label="Culture ability (free)" checked={a.culture} onChange={(v) => props.edit((x) => void (x.specialAbilities[i]!.culture = v))} />
          <Check label="Quality (counts two)" checked={a.quality} onChange={(v) => props.edit((x) => void (x.specialAbilities[i]!.quality = v))} />
          <span class="small muted">{describeEffect(a.effect)}</span>
          <Problems problems={[...props.at(`specialAbilities[${i}].quality`), ...props.at(`specialAbilities[${i}].exceptionalGear`)]} />
        </>
      )}
    />
  );
}

function PowerList(props: ListProps) {
  const s = props.sheet;
  return (
    <ListEditor
      items={s.powers}
      keyOf={(_, i) => i}
      removeLabel={(p, i) => `Remove power ${p.name || i + 1}`}
      onRemove={(_, i) => props.edit((x) => void x.powers.splice(i, 1))}
      addLabel="+ Add a power"
      onAdd={() => {
        props.edit((x) => void x.powers.push({ name: '', duration: 'instant', targets: 1, hits: 0, upgrades: 0 }));
        return `b-pw-${s.powers.length}-name`;
      }}
      fields={(p, i) => (
        <>
          <TextField id={`b-pw-${i}-name`} label="Power" value={p.name} onInput={(v) => props.edit((x) => void (x.powers[i]!.name = v))} problems={props.at(`powers[${i}].name`)} />
          <TextField id={`b-pw-${i}-skill`} label="Rolled with skill" value={p.skill ?? ''} onInput={(v) => props.edit((x) => (v ? (x.powers[i]!.skill = v) : delete x.powers[i]!.skill))} />
          <SelectField id={`b-pw-${i}-dur`} label="Duration" value={p.duration} options={POWER_DURATIONS.map((d) => ({ value: d, label: d }))} onChange={(v) => props.edit((x) => void (x.powers[i]!.duration = v))} />
          <NumberField id={`b-pw-${i}-targets`} label="Targets" value={p.targets} min={1} onChange={(v) => props.edit((x) => void (x.powers[i]!.targets = Math.max(1, Math.trunc(v))))} />
          <NumberField id={`b-pw-${i}-hits`} label="Hits" value={p.hits} min={0} onChange={(v) => props.edit((x) => void (x.powers[i]!.hits = Math.max(0, Math.trunc(v))))} />
          <NumberField
            id={`b-pw-${i}-upgrades`}
            label="Upgrades"
            value={p.upgrades}
            min={0}
            onChange={(v) => props.edit((x) => void (x.powers[i]!.upgrades = Math.max(0, Math.trunc(v))))}
            problems={[...props.at(`powers[${i}].upgrades`), ...props.at(`powers[${i}].gear`)]}
          />
        </>
      )}
    />
  );
}

function TalentList(props: ListProps) {
  const s = props.sheet;
  return (
    <ListEditor
      items={s.talents}
      keyOf={(_, i) => i}
      removeLabel={(t, i) => `Remove talent ${t.name || i + 1}`}
      onRemove={(_, i) => props.edit((x) => void x.talents.splice(i, 1))}
      addLabel="+ Add a talent"
      onAdd={() => {
        props.edit((x) => void x.talents.push({ name: '', kind: s.talents.length === 0 ? 'language' : 'expertise', native: s.talents.length === 0, uses: 1, dice: 1, resourceCap: 1 }));
        return `b-tal-${s.talents.length}-name`;
      }}
      fields={(t, i) => (
        <>
          <TextField id={`b-tal-${i}-name`} label="Talent" value={t.name} onInput={(v) => props.edit((x) => void (x.talents[i]!.name = v))} problems={props.at(`talents[${i}].name`)} />
          <SelectField
            id={`b-tal-${i}-kind`}
            label="Kind"
            value={t.kind}
            options={[
              { value: 'language', label: 'Language' },
              { value: 'expertise', label: 'Expertise' },
              { value: 'resource', label: 'Resource' },
            ]}
            onChange={(v) =>
              props.edit((x) => {
                x.talents[i]!.kind = v;
                if (v !== 'language') x.talents[i]!.native = false;
              })
            }
          />
          {t.kind === 'expertise' && (
            <>
              <NumberField id={`b-tal-${i}-uses`} label="Uses a session" value={t.uses} min={1} onChange={(v) => props.edit((x) => void (x.talents[i]!.uses = Math.max(1, Math.trunc(v))))} hint="Each above 1 is an upgrade" />
              <NumberField id={`b-tal-${i}-dice`} label="Bonus dice" value={t.dice} min={1} onChange={(v) => props.edit((x) => void (x.talents[i]!.dice = Math.max(1, Math.trunc(v))))} hint="Each above 1 is an upgrade" />
            </>
          )}
          {t.kind === 'resource' && (
            <NumberField id={`b-tal-${i}-cap`} label="Resource Cap" value={t.resourceCap} min={1} onChange={(v) => props.edit((x) => void (x.talents[i]!.resourceCap = Math.max(1, Math.trunc(v))))} hint="Each above 1 is an upgrade" />
          )}
        </>
      )}
      footer={(t, i) => (t.kind === 'language' ? <Check label="Native language (free)" checked={t.native} onChange={(v) => props.edit((x) => void (x.talents[i]!.native = v))} /> : null)}
    />
  );
}
