import { createElement, useEffect, useState, type ComponentType } from 'react';

/** A view whose code is loaded apart from the first screen's; `preload` fetches it ahead of its first use. */
export interface LaterView<P> {
  (props: P): React.ReactNode;
  preload(): Promise<unknown>;
}

/**
 * A view loaded when first shown, or before that by `preload`. Not React.lazy: a lazy view suspends on its
 * first render even when its code is already here, and React holds a suspended view's reveal for 300 ms.
 * Loaded, it renders at once; a load that fails is thrown to the view's boundary, which can try again.
 */
export function later<P extends object>(load: () => Promise<ComponentType<P>>): LaterView<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        pending = null;
        throw error;
      },
    ));
  function Later(props: P) {
    const [failed, setFailed] = useState<unknown>(null);
    const [, setLoaded] = useState(false);
    useEffect(() => {
      if (!loaded) preload().then(() => setLoaded(true), setFailed);
    }, []);
    if (failed) throw failed;
    return loaded ? createElement(loaded, props) : <p className="muted" role="status">Opening…</p>;
  }
  return Object.assign(Later, { preload });
}
