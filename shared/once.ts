/** `listener`, heard on the first call only: for an end that more than one event can say. */
export function onlyFirst<A extends unknown[]>(listener: (...args: A) => void): (...args: A) => void {
  let called = false;
  return (...args) => {
    if (called) return;
    called = true;
    listener(...args);
  };
}
