// Whether the sidebar is shown (Ctrl+B), remembered in this browser.
const SIDEBAR_KEY = 'cellwatch.sidebar';

export function readSidebar(): boolean {
  try {
    return globalThis.localStorage?.getItem(SIDEBAR_KEY) !== 'hidden';
  } catch {
    return true;
  }
}

export function saveSidebar(shown: boolean): void {
  try {
    localStorage.setItem(SIDEBAR_KEY, shown ? 'shown' : 'hidden');
  } catch {
    // Storage refused (private mode): it holds for this window only.
  }
}
