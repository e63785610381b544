// One word for whether something that can be live is: the window's connection to its core, an SSH host's
// connection, its change feed. Each keeps its own states for what it says beyond that (a host's key to
// accept, a feed's mode); where a view or a reader asks "is it live?", it asks this.

export type Presence = 'connecting' | 'live' | 'reconnecting' | 'stopped' | 'failed';

/** An SSH host's connection, as its status says it (and shows it, by name). */
export type HostState = 'connecting' | 'connected' | 'reconnecting' | 'failed';
/** A host's change feed: live, changes are told as they happen; otherwise readers poll. */
export type FeedState = 'off' | 'starting' | 'live' | 'down';

const HOST: Record<HostState, Presence> = { connecting: 'connecting', connected: 'live', reconnecting: 'reconnecting', failed: 'failed' };
const FEED: Record<FeedState, Presence> = { off: 'stopped', starting: 'connecting', live: 'live', down: 'reconnecting' };

export const hostPresence = (state: HostState): Presence => HOST[state];
export const feedPresence = (state: FeedState): Presence => FEED[state];
