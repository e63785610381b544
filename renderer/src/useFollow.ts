import { useEffect, useRef, useState } from 'react';

/**
 * A scrolling list that follows what is appended to it: kept at its end while `shown` changes, until the
 * user scrolls up; `follow()` takes it back to following.
 */
export function useFollow<E extends HTMLElement>(shown: unknown) {
  const ref = useRef<E>(null);
  const [following, setFollowing] = useState(true);
  useEffect(() => {
    if (following && ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [shown, following]);
  const onScroll = () => {
    const el = ref.current;
    if (el) setFollowing(el.scrollHeight - el.scrollTop - el.clientHeight < 8);
  };
  return { ref, onScroll, following, follow: () => setFollowing(true) };
}
