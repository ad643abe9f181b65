/**
 * A persistent stack (a linked list from the newest item down): pushing, popping and reading the top
 * are O(1) and never change a chain another state holds, so every state of a fold shares the items
 * below its own top. A log whose last entry can be taken back (undo) or grown (a command's further
 * events) is kept this way; `null` is the empty chain.
 */
export interface Chain<Item> {
  readonly top: Item;
  readonly below: Chain<Item> | null;
  readonly length: number;
}

export function chainPush<Item>(chain: Chain<Item> | null, item: Item): Chain<Item> {
  return { top: item, below: chain, length: (chain?.length ?? 0) + 1 };
}

/** The items, oldest first (O(length)). */
export function chainItems<Item>(chain: Chain<Item> | null): Item[] {
  const items: Item[] = new Array<Item>(chain?.length ?? 0);
  for (let c = chain, i = items.length - 1; c; c = c.below, i--) items[i] = c.top;
  return items;
}
