package io.loadsmith.stall.observe;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JFR event whose start tick is paired with the clock's readings just before and after its commit. Every
 * recording of the JVM sees every stream's sync events (and the service's own recording holds them while a
 * stream runs), so each carries the id of the stream that committed it, and a stream maps only its own.
 */
@Name("loadsmith.ClockSync")
@Label("loadsmith clock sync")
@Category("loadsmith")
@Description("Pairs a JFR tick with the monotonic clock, to map JFR events onto the stall windows' clock")
@StackTrace(false)
final class SyncEvent extends Event {

    @Label("Stream")
    @Description("A random id of the pause observer's stream that committed it")
    long stream;

    @Label("Sequence")
    long sequence;

    @Label("Nanos before commit")
    long beforeNanos;
}
