import type { Board } from './model';

/** Which board a run name sits on: `ui_*` never, `nonstd_*` off by protocol override, anything else on. */
export function boardOf(name: string): Board {
  if (name.startsWith('ui_')) return 'ui';
  if (name.startsWith('nonstd_')) return 'nonstd';
  return 'on';
}

export function cellId(host: string, path: string): string {
  return `${host}:${path}`;
}
