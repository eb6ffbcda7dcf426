/**
 * JFR events of the stall windows, in the service's own JVM: {@code loadsmith.Stall}, one per window the
 * controller opened, committed when it ends, and {@code loadsmith.HeldRequest}, one per request a window held,
 * committed by the request's thread when it is let go (off by default: it costs the request a few microseconds).
 * A recording of the service ({@code
 * -XX:StartFlightRecording}, JDK Mission Control) shows them beside its collections, safepoints and parks.
 * {@link io.loadsmith.stall.jfr.StallEvents} is what the controller calls; it needs no {@code jdk.jfr} where the
 * JVM has none. docs/agent.md, "JFR events", says how to read them.
 */
package io.loadsmith.stall.jfr;
