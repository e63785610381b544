// Every place in the window has a URL: `#/cells?root=…&q=…`, `#/cell/<id>?tab=episodes&episode=5&event=12`,
// `#/board?name=…&across=harness&all=1`, `#/paired?a=…&b=…`, `#/compare?slots=…`, `#/gpu`, `#/runs`, `#/fleet`. The hash follows the store; Back, Forward, a reload or
// a link pasted into another window of the same server bring the store back to it.
import { CELL_TABS, type CellTab } from '../../shared/alerts';
import { BOARD_FIELDS, type BoardField } from '../../shared/board';
import type { AppState, AppStore, View } from './data/store';

const VIEWS: readonly View[] = ['cells', 'board', 'paired', 'compare', 'gpu', 'runs', 'fleet'];

type Place = Pick<AppState, 'view' | 'selectedRoot' | 'selectedHost' | 'listFilter' | 'listCursor' | 'openCellId' | 'openCellTab' | 'openCellEpisode' | 'openCellEvent' | 'boardName' | 'boardAcross' | 'boardAll' | 'pairedA' | 'pairedB' | 'compareSlots' | 'compareSeed' | 'compareSpeed' | 'compareTime'>;

export function hashOf(s: Place): string {
  const query = (pairs: [string, string | number | null][]) => {
    const kept = pairs.filter((p): p is [string, string | number] => p[1] !== null && p[1] !== '');
    return kept.length ? `?${new URLSearchParams(kept.map(([k, v]) => [k, String(v)])).toString()}` : '';
  };
  if (s.openCellId) {
    return `#/cell/${encodeURIComponent(s.openCellId)}${query([
      ['tab', s.openCellTab === 'overview' ? null : s.openCellTab],
      ['episode', s.openCellEpisode],
      ['event', s.openCellEvent],
    ])}`;
  }
  if (s.view === 'cells') return `#/cells${query([['root', s.selectedRoot], ['host', s.selectedHost], ['q', s.listFilter], ['row', s.listCursor]])}`;
  if (s.view === 'board') return `#/board${query([['name', s.boardName], ['across', s.boardAcross === 'model' ? null : s.boardAcross], ['all', s.boardAll ? 1 : null]])}`;
  if (s.view === 'paired') return `#/paired${query([['a', s.pairedA], ['b', s.pairedB]])}`;
  if (s.view === 'compare') return `#/compare${query([['slots', s.compareSlots], ['seed', s.compareSeed], ['speed', s.compareSpeed === 1 ? null : s.compareSpeed], ['t', s.compareTime > 0 ? Number(s.compareTime.toFixed(2)) : null]])}`;
  return `#/${s.view}`;
}

/** A positive number a link says; null for anything else. */
const positive = (text: string | null) => (text !== null && Number(text) > 0 && Number.isFinite(Number(text)) ? Number(text) : null);

/** The place a hash names; null when it names none (an empty or foreign hash). */
export function placeOf(hash: string): Partial<Place> | null {
  const match = /^#\/([a-z]+)(?:\/([^?]*))?(?:\?(.*))?$/.exec(hash);
  if (!match) return null;
  const [, head, rest, search] = match;
  const q = new URLSearchParams(search ?? '');
  if (head === 'cell' && rest) {
    const tab = q.get('tab') as CellTab | null;
    const event = q.get('event');
    return {
      openCellId: decodeURIComponent(rest),
      openCellTab: tab && (CELL_TABS as readonly string[]).includes(tab) ? tab : 'overview',
      openCellEpisode: q.get('episode'),
      openCellEvent: event !== null && /^\d+$/.test(event) ? Number(event) : null,
    };
  }
  if (!VIEWS.includes(head as View)) return null;
  const view = head as View;
  const base: Partial<Place> = { view, openCellId: null };
  if (view === 'cells') return { ...base, selectedRoot: q.get('root'), selectedHost: q.get('host'), listFilter: q.get('q') ?? '', listCursor: q.get('row') };
  if (view === 'board') {
    const across = q.get('across') as BoardField | null;
    return { ...base, boardName: q.get('name'), boardAcross: across && BOARD_FIELDS.includes(across) ? across : 'model', boardAll: q.get('all') === '1' };
  }
  if (view === 'paired') return { ...base, pairedA: q.get('a') ?? '', pairedB: q.get('b') ?? '' };
  if (view === 'compare') return { ...base, compareSlots: q.get('slots') ?? '', compareSeed: q.get('seed'), compareSpeed: positive(q.get('speed')) ?? 1, compareTime: positive(q.get('t')) ?? 0 };
  return base;
}

/** Whether going from one place to the other is a step Back should undo (not a keystroke in a filter). */
function isStep(from: string, to: string): boolean {
  const path = (hash: string) => hash.split('?')[0];
  const without = (hash: string, key: string) => hash.replace(new RegExp(`([?&])${key}=[^&]*`), '$1');
  // Typing in a filter, moving the highlight or the Compare clock replaces the entry; anything else is a step.
  const settled = (hash: string) => ['q', 'row', 't', 'speed'].reduce(without, hash).replace(/&+/g, '&').replace(/[?&]+$|(?<=\?)&/g, '');
  return path(from) !== path(to) || settled(from) !== settled(to);
}

/** Keeps the URL and the store in step, both ways; returns the function that stops it. */
export function followHash(store: AppStore): () => void {
  let applying = false;
  const apply = () => {
    const place = placeOf(window.location.hash);
    if (!place) return;
    applying = true;
    store.setState(place);
    applying = false;
  };
  apply();
  const onPop = () => apply();
  window.addEventListener('popstate', onPop);
  const off = store.subscribe((state) => {
    if (applying) return;
    const next = hashOf(state);
    const now = window.location.hash;
    if (next === now) return;
    if (now && isStep(now, next)) window.history.pushState(null, '', next);
    else window.history.replaceState(null, '', next);
  });
  return () => {
    off();
    window.removeEventListener('popstate', onPop);
  };
}
