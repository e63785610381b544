import pkg from '../package.json' with { type: 'json' };

export const APP_VERSION: string = pkg.version;

declare const __CELLWATCH_READERS__: string | undefined;

/**
 * The code that reads run directories, as scripts/build.mjs hashes it (the version, run from the sources): what
 * a cache of the rows it made is kept for.
 */
export const READERS: string = typeof __CELLWATCH_READERS__ === 'string' ? __CELLWATCH_READERS__ : `${APP_VERSION} (sources)`;
