// The clocks a player watches (a countdown, a plot timer) are drawn ten times a second, not
// on every animation frame: they show tenths at most, and a page that draws 60 frames a
// second for a countdown keeps a phone's processor busy for nothing.

/** How often a shown clock is drawn again (ms). */
export const TICK_MS = 100;
