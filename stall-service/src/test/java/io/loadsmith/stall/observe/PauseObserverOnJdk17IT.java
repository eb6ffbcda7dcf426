package io.loadsmith.stall.observe;

import java.nio.file.Path;

/** {@link AbstractPauseObserverIT} on the JDK that runs the build (17). */
class PauseObserverOnJdk17IT extends AbstractPauseObserverIT {
    @Override protected Path javaHome() { return Path.of(System.getProperty("java.home")); }
}
