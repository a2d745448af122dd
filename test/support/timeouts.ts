/**
 * Explicit time limits for tests that start a process, pack, build or type-check. On two
 * slow shared cores such a test takes one to five seconds at its median; each limit is far
 * above four times that, so only a hung test reaches it.
 */

/** A test that spawns node, npm or tsc once or a few times. */
export const SPAWNS = 60_000;

/** A test that builds, packs or installs the package, or runs a whole command end to end. */
export const BUILDS = 300_000;
