import { newCharacterId, type Actor } from '@personae/core';

/** A character id made from its name: lower case, letters and digits, dashes between ("character" for none). */
export function idFromName(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40)
      .replace(/-+$/, '') || 'character'
  );
}

/**
 * The id to ask for a new character: its name, with "-2", "-3"… when the server would give an id the
 * viewer already sees or the ruleset reserves (`reserved`, ids the server refuses). The server places a
 * player's id in their seat's space (core `newCharacterId`), so it never meets a character of another
 * seat or one hidden from the player; the GM sees every character.
 */
export function newIdFor(me: Actor, name: string, characters: readonly { readonly id: string }[], reserved: readonly string[] = []): string {
  const held = (asked: string) => reserved.includes(asked) || characters.some((c) => c.id === newCharacterId(me, asked));
  const base = idFromName(name);
  let id = base;
  for (let n = 2; held(id); n++) id = `${base}-${n}`;
  return id;
}
