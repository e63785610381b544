/** How long a launched run's cell is waited for, and how often its root is read again meanwhile. */
const WAIT_MS = 10_000;
const AGAIN_MS = 200;

/** Reads again (`refresh`) until `done`, while `going` says so, for at most WAIT_MS. */
export async function until(done: () => boolean, refresh: () => Promise<void> | undefined, going: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline && !done() && going()) {
    await refresh();
    if (!done()) await new Promise((r) => setTimeout(r, AGAIN_MS));
  }
}
