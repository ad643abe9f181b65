/**
 * Tables this browser has joined, kept in localStorage so that "Your tables" can reopen them and a
 * link without its token still works on this device.
 */
export interface SavedTable {
  tableId: string;
  tableName: string;
  role: 'gm' | 'player' | 'observer';
  displayName: string | null;
  token: string;
  /** The GM's invite link, kept so it can be copied again later. */
  invite?: string;
  observer?: string;
  savedAt: string;
}

const KEY = 'personae.tables';

function read(): SavedTable[] {
  try {
    const raw = localStorage.getItem(KEY);
    const list: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(list) ? (list as SavedTable[]).filter((t) => t && typeof t.tableId === 'string' && typeof t.token === 'string') : [];
  } catch {
    return [];
  }
}

export function savedTables(): SavedTable[] {
  return read().sort((a, b) => b.savedAt.localeCompare(a.savedAt));
}

export function savedTable(tableId: string, token?: string | null): SavedTable | undefined {
  const all = read().filter((t) => t.tableId === tableId);
  return (token ? all.find((t) => t.token === token) : undefined) ?? all.find((t) => t.role === 'gm') ?? all[0];
}

export function saveTable(entry: Omit<SavedTable, 'savedAt'> & { savedAt?: string }): void {
  const list = read().filter((t) => !(t.tableId === entry.tableId && t.token === entry.token));
  const previous = read().find((t) => t.tableId === entry.tableId && t.token === entry.token);
  list.push({ ...previous, ...entry, savedAt: entry.savedAt ?? new Date().toISOString() });
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(-30)));
  } catch {
    // Storage full or disabled: the link in the address bar still works.
  }
}

export function forgetTable(tableId: string, token: string): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(read().filter((t) => !(t.tableId === tableId && t.token === token))));
  } catch {
    // ignore
  }
}

/** The section of a table page that was open in this browser tab, so a reload or a new table opens there. */
export function openTab(tableId: string): string | null {
  try {
    return sessionStorage.getItem(`personae.tab.${tableId}`);
  } catch {
    return null;
  }
}

export function rememberTab(tableId: string, tab: string): void {
  try {
    sessionStorage.setItem(`personae.tab.${tableId}`, tab);
  } catch {
    // Storage disabled: the page opens on its first section.
  }
}
