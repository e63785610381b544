import { useCallback, useEffect, useRef, useState } from 'react';

const OVERSCAN = 8;

/** Which rows of a fixed-height list are on screen: only those are rendered, so 10,000 rows scroll smoothly. */
export function useVirtualRows(count: number, rowHeight: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 600 });

  const measure = useCallback(() => {
    const el = ref.current;
    if (el) setView({ top: el.scrollTop, height: el.clientHeight });
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure]);

  const first = Math.max(0, Math.floor(view.top / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((view.top + view.height) / rowHeight) + OVERSCAN);

  const scrollToRow = useCallback(
    (index: number) => {
      const el = ref.current;
      if (!el) return;
      const top = index * rowHeight;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
    },
    [rowHeight],
  );

  return { ref, onScroll: measure, first, last, totalHeight: count * rowHeight, scrollToRow };
}
