/**
 * Real pauses beside injected ones: {@link io.loadsmith.stall.observe.PauseObserver} records the
 * safepoints of this JVM (through an in-process JFR stream) and the stalls of the whole process (through
 * a sleeper thread) as windows on the same monotonic clock as the stall windows. docs/pauses.md says what
 * each source sees and misses.
 */
package io.loadsmith.stall.observe;
