import { cite, type Citation } from '@personae/core';

/**
 * The sections of the Personae documents the encounter engine cites, by document, each with what the
 * engine takes from it. Refusals cite a section through `rule`, which accepts only the sections
 * listed here, so every citation in the encounter is one the registry (and docs/rules.md) knows.
 */
export const ENCOUNTER_DOCUMENTS = {
  core: 'personae-core-2011.txt',
  web: 'personae-playing-web.txt',
  v4: 'personae-v4-srd-playing.txt',
} as const;
export type EncounterDocument = keyof typeof ENCOUNTER_DOCUMENTS;

export const ENCOUNTER_SECTIONS = {
  core: {
    'Assisting in a Challenge': 'what assistants give, the skill they act with, and when they declare it',
    'Critical Success': 'who banks criticals from natural 10s, and what spending them buys',
    Defense: 'the defences an attack may be answered with, and which weights parry and block which',
    'Distance and Location': 'moving and where characters stand',
    'Duration / Duration Identifiers': 'how long powers last, maintaining them, and attacks being Instant',
    Escalation: 'the steps from scene to violent encounter',
    Expertise: 'the extra die of an Expertise talent, once a session',
    'Healing and Recovery': 'recovery challenges, convalescence and healing',
    'Injury and Death': 'hits, statuses and their timing, unconsciousness, Dying and stabilizing',
    'Non-Violent Encounters': 'interaction challenges outside violence',
    Obstacles: 'static obstacles and hazards, rolled only when the group decides they matter, as a difficulty or an identity with its own pool',
    'Passive vs. Active Defense': 'passive defences and declared active ones',
    'Power Combat': 'power challenges and the defences against supernatural attacks',
    'Scope of Special Abilities': 'one special ability a turn, Qualities besides',
    'Special Ability Identifiers': 'Qualities, Conditional limits and Exceptional Gear',
    'Subsequent vs. Additional Challenges': 'reading the next-highest dice of the same roll',
    'The Action Order, and Actions': 'turn order and the one action a turn',
    'The Challenge': 'the opposed roll every challenge uses',
    'The Framework of Advancement': 'the size of a benefit and its upgrades',
    'The Scene': 'who is present in a scene',
    'Unopposed Challenges': 'the difficulty ladder and the GM rolling one die fewer than the skill',
    'What Special Abilities Can Do': 'the effects special abilities have on a challenge, and what Taunt and Misdirection make follow a won interaction',
    'What Your Character Knows': 'inquiry: what a character knows against what is hidden',
  },
  web: {
    'Critical Success': 'criticals for the side that succeeds, capped, and an automatic success as their default use',
  },
  v4: {
    'Concerted Effort': 'player characters combining their dice in one challenge',
    'Critical Success': 'banking criticals on a clear win, and steering with them',
    'The Challenge': 'encounters escalating and de-escalating as the fiction makes sense',
  },
} as const satisfies Record<EncounterDocument, Record<string, string>>;

export type EncounterSection<D extends EncounterDocument> = keyof (typeof ENCOUNTER_SECTIONS)[D] & string;

/** The citation of a section the registry lists: refusals carry it, log lines print it. */
export function rule<D extends EncounterDocument>(doc: D, section: EncounterSection<D>): Citation {
  return cite(ENCOUNTER_DOCUMENTS[doc], section);
}

/** The registry as a Markdown table, for the generated part of docs/rules.md. */
export function encounterSectionsMarkdown(): string {
  const rows = (Object.keys(ENCOUNTER_SECTIONS) as EncounterDocument[]).flatMap((doc) =>
    Object.entries(ENCOUNTER_SECTIONS[doc] as Record<string, string>).map(([section, what]) => `| \`${ENCOUNTER_DOCUMENTS[doc]}\` "${section}" | ${what} |`),
  );
  return ['| document, section | what the encounter takes from it |', '| --- | --- |', ...rows].join('\n');
}
