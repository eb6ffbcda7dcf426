package io.loadsmith.stall.jfr;

/**
 * Decides once whether this JVM can report to JFR: the {@code jdk.jfr} module must be in the boot layer and the
 * event classes must load. Kept apart from {@link JfrStallEvents} so that nothing loads that class (whose
 * verification resolves {@code jdk.jfr.Event}) where JFR is missing.
 */
final class JfrAvailability {

    static final StallEvents EVENTS = detect();

    private JfrAvailability() {
    }

    private static StallEvents detect() {
        if (ModuleLayer.boot().findModule("jdk.jfr").isEmpty()) {
            return StallEvents.none();
        }
        try {
            Class<?> events = Class.forName(JfrAvailability.class.getPackageName() + ".JfrStallEvents");
            return (StallEvents) events.getDeclaredConstructor().newInstance();
        } catch (Throwable e) {
            return StallEvents.none(); // JFR unusable here: the windows are still served by GET /stalls
        }
    }
}
