package io.loadsmith.stall.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * One stall window of the controller. Begun (JFR's start) just before the controller reads the window's start
 * from the clock, ended and committed as it closes the window, after reading its end, on the controller's
 * thread: its JFR duration is the window, never less, plus however late the controller's thread comes to close
 * it (microseconds when it gets a core; a window that runs its course stops holding at its end by itself) and
 * the microsecond or so it takes to open it. The
 * exact edges are the fields, on the clock of {@code GET /stalls}: {@code System.nanoTime()} of the service's
 * host, which no JFR content type names (a {@code @Timestamp} is wall-clock milliseconds or JFR ticks), so they
 * carry no unit annotation; the durations derived from them do ({@code @Timespan}). A {@code freeze} window
 * begins when the controller hands it to the freezer, up to 20 ms before the stop, since JFR takes the start
 * from the thread that calls {@code begin()}, and nothing of the JVM runs during the stop.
 */
@Name("loadsmith.Stall")
@Label("Stall window")
@Category("loadsmith")
@Description("A stall window loadsmith injected: requests arriving in it were held (block, spin) or the whole "
        + "process was stopped (freeze). Its fields are the row of GET /stalls")
@Enabled(true)
@StackTrace(false)
final class StallEvent extends Event {

    @Label("Index")
    @Description("The stall's index in its plan, as in GET /stalls")
    long index;

    @Label("Run Id")
    @Description("The run_id of the arm: the tester's when its POST /arm named one, else made by the service")
    String runId;

    @Label("Tester Run Id")
    @Description("The run_id the tester named in its POST /arm; null when the service made the run id")
    String testerRunId;

    @Label("Kind")
    @Description("block, spin or freeze")
    String kind;

    @Label("Seeded")
    @Description("True when the plan was drawn from a seed (then Seed is that seed), false for an explicit plan")
    boolean seeded;

    @Label("Seed")
    @Description("The seed the plan was drawn from (0 for an explicit plan: see Seeded)")
    long seed;

    @Label("Planned Start (ns)")
    @Description("planned_start_ns of GET /stalls: the planned start on the host's monotonic clock (System.nanoTime), in ns")
    long plannedStartNanos;

    @Label("Planned End (ns)")
    @Description("The planned end, on that clock: the planned start plus the planned duration")
    long plannedEndNanos;

    @Label("Start (ns)")
    @Description("When the window really opened, on that clock: start_ns of GET /stalls")
    long startNanos;

    @Label("End (ns)")
    @Description("When it stopped holding, on that clock: end_ns of GET /stalls")
    long endNanos;

    @Label("Planned Duration")
    @Timespan(Timespan.NANOSECONDS)
    long plannedDuration;

    @Label("Window")
    @Description("How long the window really held: End - Start")
    @Timespan(Timespan.NANOSECONDS)
    long window;

    @Label("Start Lateness")
    @Description("Start - Planned Start")
    @Timespan(Timespan.NANOSECONDS)
    long startLateness;

    @Label("Cut Short")
    @Description("Ended before its planned duration, by a disarm or a new arm")
    boolean cutShort;

    @Label("Held")
    @Description("Requests the gate held in this window (each gate crossing counts): held of GET /stalls")
    long held;
}
