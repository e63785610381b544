import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * A scrolling list that follows what is appended to it: kept at its end while `shown` changes, and while
 * the list's own box changes size (a frame below it loaded), until the user scrolls up; `follow()` takes
 * it back to following. `element`: the list's own ref where another hook holds it (a virtualized list).
 */
export function useFollow<E extends HTMLElement>(shown: unknown, element?: RefObject<E | null>) {
  const own = useRef<E>(null);
  const ref = element ?? own;
  const [following, setFollowing] = useState(true);
  const followingNow = useRef(following);
  followingNow.current = following;
  useEffect(() => {
    if (following && ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [shown, following, ref]);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => {
      if (followingNow.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  const onScroll = () => {
    const el = ref.current;
    if (el) setFollowing(el.scrollHeight - el.scrollTop - el.clientHeight < 8);
  };
  return { ref, onScroll, following, follow: () => setFollowing(true) };
}
