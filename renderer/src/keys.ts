import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';

function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/**
 * A single-key shortcut, ignored while the user types in a field. The key calls the action of the latest
 * render, set before it is painted: a listener made again after each render's paint answered a key pressed
 * in between with the render before's (j on a transcript just loaded moved through no turns).
 */
export function useKey(key: string, action: () => void): void {
  const latest = useRef(action);
  useLayoutEffect(() => {
    latest.current = action;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== key || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [key]);
}

/** j/k and the arrows move through a list's rows by one. */
export function useRowKeys(move: (delta: number) => void): void {
  useKey('j', useCallback(() => move(1), [move]));
  useKey('k', useCallback(() => move(-1), [move]));
  useKey('ArrowDown', useCallback(() => move(1), [move]));
  useKey('ArrowUp', useCallback(() => move(-1), [move]));
}

/**
 * While `active`, Escape closes what is open (a popover) and only that: heard before every other
 * listener, it goes no further (the view beneath, which Escape also leaves, stays).
 */
export function useEscape(active: boolean, close: () => void): void {
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      close();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [active, close]);
}
