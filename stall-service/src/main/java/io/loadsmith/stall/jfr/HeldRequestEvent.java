package io.loadsmith.stall.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * One request a stall window held: begun on the request's thread as its hold begins, ended and committed by
 * that thread once it is let go, so JFR's event thread is the held thread and the duration how long it was held.
 *
 * <p>Off by default, and from 10 ms when on: the commit is on the released request's path, and a commit that
 * runs once a window, cold, added 1-23 µs to the median release of a held request (StallTimingBenchmark, 1,000
 * windows, docs/benchmarks.md). Turn it on with {@code +loadsmith.HeldRequest#enabled=true} after
 * {@code -XX:StartFlightRecording:settings=default,} or in a {@code .jfc}.
 */
@Name("loadsmith.HeldRequest")
@Label("Held Request")
@Category("loadsmith")
@Description("A request thread a loadsmith stall window held at a gate; the duration is how long it was held")
@Enabled(false)
@Threshold("10 ms")
@StackTrace(false)
final class HeldRequestEvent extends Event {

    @Label("Stall Index")
    @Description("The index of the window that held it (the Index of its loadsmith.Stall event)")
    long stallIndex;

    @Label("Run Id")
    String runId;

    @Label("Kind")
    @Description("block or spin")
    String kind;
}
