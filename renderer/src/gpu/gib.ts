/** MiB as GiB to one decimal; '?' where unknown. */
export const gib = (mib: number | null) => (mib === null ? '?' : (mib / 1024).toFixed(1));
