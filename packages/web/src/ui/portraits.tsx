import { createContext, type ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../lib/api';

/** Uploaded portraits at this table, by character id: a URL of the image fetched with the viewer's token. */
export const PortraitUrls = createContext<ReadonlyMap<string, string>>(new Map());

/**
 * Keeps the table's uploaded portraits: the list the viewer may see when the page opens, then each
 * change the server announces (`changes`), each image fetched once per version and shown from memory.
 */
export function PortraitProvider(props: { tableId: string; token: string | null; changes: Readonly<Record<string, string | null>>; children: ComponentChildren }) {
  const [digests, setDigests] = useState<Record<string, string | null>>({});
  const [urls, setUrls] = useState<ReadonlyMap<string, string>>(new Map());
  const loaded = useRef(new Map<string, { digest: string; url: string }>());
  useEffect(() => {
    if (!props.token) return;
    api.portraits(props.tableId, props.token).then(
      (r) => setDigests((d) => ({ ...r.portraits, ...d })),
      () => undefined,
    );
  }, [props.tableId, props.token]);
  useEffect(() => setDigests((d) => ({ ...d, ...props.changes })), [props.changes]);
  useEffect(() => {
    const token = props.token;
    if (!token) return;
    let live = true;
    for (const [id, digest] of Object.entries(digests)) {
      const have = loaded.current.get(id);
      if (digest === null) {
        if (have) {
          URL.revokeObjectURL(have.url);
          loaded.current.delete(id);
          setUrls(new Map([...loaded.current].map(([k, v]) => [k, v.url])));
        }
        continue;
      }
      if (have?.digest === digest) continue;
      api.portraitImage(props.tableId, token, id).then(
        (blob) => {
          if (!live) return;
          const old = loaded.current.get(id);
          if (old) URL.revokeObjectURL(old.url);
          loaded.current.set(id, { digest, url: URL.createObjectURL(blob) });
          setUrls(new Map([...loaded.current].map(([k, v]) => [k, v.url])));
        },
        () => undefined,
      );
    }
    return () => {
      live = false;
    };
  }, [digests, props.token]);
  return <PortraitUrls.Provider value={urls}>{props.children}</PortraitUrls.Provider>;
}
