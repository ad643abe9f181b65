import { ATTRIBUTES, ATTRIBUTE_LABELS, PRIORITY_LABELS, deriveCharacter, describeEffect, type CharacterSheet, type CharacterOptions } from '../lib/rules';
import { skillsOf } from '../lib/roller';

/** A character sheet laid out like the paper one: used on screen, in the review step and for printing. */
export function SheetView(props: { sheet: CharacterSheet; options: CharacterOptions; headingLevel?: 2 | 3 }) {
  const s = props.sheet;
  const d = deriveCharacter(s, props.options);
  const H = props.headingLevel === 3 ? 'h3' : 'h2';
  const H2 = props.headingLevel === 3 ? 'h4' : 'h3';
  return (
    <article class="sheet-view">
      <H>{s.name || 'Unnamed character'}</H>
      <p>
        <strong>{s.concept || 'No concept yet'}</strong>
        {s.player ? ` · played by ${s.player}` : ''} · {s.role}
        {s.tier ? ` (${s.tier})` : ''} · {s.creationPoints} creation points
      </p>
      <section>
        <H2>Attributes</H2>
        <div class="table-scroll"><table>
          <thead>
            <tr>
              <th scope="col">Attribute</th>
              <th scope="col">Value</th>
              <th scope="col">Priority</th>
            </tr>
          </thead>
          <tbody>
            {ATTRIBUTES.map((a) => (
              <tr key={a}>
                <th scope="row">{ATTRIBUTE_LABELS[a]}</th>
                <td>{s.attributes[a]}</td>
                <td>{d.priorityOf[a] ? PRIORITY_LABELS[d.priorityOf[a]!] : '–'}</td>
              </tr>
            ))}
          </tbody>
        </table></div>
        <p>
          Potential {d.potential} (Potential Threshold {d.potentialThreshold}) · Prowess Pool {d.prowessPool} ({d.prowessDice.unassigned} unassigned) · at
          most {d.maxSkillDice} dice a skill · {d.hitsBeforeInjured} hits before {d.healthStatuses[0] === 'incapacitated' ? 'Incapacitated' : 'Injured'}
          {s.criticals ? ` · ${s.criticals} banked criticals` : ''}
        </p>
      </section>
      <section>
        <H2>Skills</H2>
        <div class="table-scroll"><table>
          <thead>
            <tr>
              <th scope="col">Skill</th>
              <th scope="col">Dice</th>
              <th scope="col">Attribute</th>
              <th scope="col">Gear</th>
            </tr>
          </thead>
          <tbody>
            {skillsOf(s).map((k) => {
              const full = s.skills.find((x) => x.name === k.name);
              return (
                <tr key={k.name}>
                  <th scope="row">{k.name}</th>
                  <td>{k.dice}</td>
                  <td>
                    {ATTRIBUTE_LABELS[k.attribute]} {s.attributes[k.attribute]}
                  </td>
                  <td>{full?.weapon ?? full?.shield ?? ''}</td>
                </tr>
              );
            })}
          </tbody>
        </table></div>
      </section>
      {s.talents.length > 0 && (
        <section>
          <H2>Talents</H2>
          <ul>
            {s.talents.map((t) => (
              <li key={t.name}>
                {t.name} ({t.kind}
                {t.native ? ', native' : ''}
                {t.kind === 'expertise' ? `, ${t.uses} use${t.uses === 1 ? '' : 's'} of +${t.dice}` : ''}
                {t.kind === 'resource' ? `, cap +${t.resourceCap}` : ''})
              </li>
            ))}
          </ul>
        </section>
      )}
      {s.specialAbilities.length > 0 && (
        <section>
          <H2>Special abilities</H2>
          <ul>
            {s.specialAbilities.map((a) => (
              <li key={a.name}>
                <strong>{a.name}</strong>
                {[a.culture ? 'culture' : '', a.quality ? 'Quality' : '', a.exceptionalGear ? `unlocks ${a.exceptionalGear}` : '', a.upgrades ? `${a.upgrades} upgrade${a.upgrades === 1 ? '' : 's'}` : '']
                  .filter(Boolean)
                  .map((x) => ` · ${x}`)}
                {' · '}
                {describeEffect(a.effect)}
                {a.conditional.length ? ` · only when ${a.conditional.join('; ')}` : ''}
              </li>
            ))}
          </ul>
        </section>
      )}
      {s.powers.length > 0 && (
        <section>
          <H2>Powers</H2>
          <ul>
            {s.powers.map((p) => (
              <li key={p.name}>
                <strong>{p.name}</strong> · {p.duration} · {p.targets} target{p.targets === 1 ? '' : 's'} · {p.hits} hit{p.hits === 1 ? '' : 's'}
                {p.skill ? ` · rolled with ${p.skill}` : ''}
                {p.upgrades ? ` · ${p.upgrades} upgrade${p.upgrades === 1 ? '' : 's'}` : ''}
              </li>
            ))}
          </ul>
        </section>
      )}
      {s.gear.length > 0 && (
        <section>
          <H2>Gear</H2>
          <ul>
            {s.gear.map((g) => (
              <li key={g.name}>
                {g.name} ({g.type}
                {g.type === 'weapon' ? `, ${g.size}, ${g.range}, ${g.group}` : ''}
                {g.type === 'shield' ? `, ${g.weight}` : ''}
                {g.exceptional ? `, exceptional: ${g.exceptional}` : ''})
              </li>
            ))}
          </ul>
        </section>
      )}
      {s.notes && (
        <section>
          <H2>Notes</H2>
          <p>{s.notes}</p>
        </section>
      )}
    </article>
  );
}
