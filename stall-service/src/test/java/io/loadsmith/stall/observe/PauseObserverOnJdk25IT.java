package io.loadsmith.stall.observe;

import java.nio.file.Path;

/** {@link AbstractPauseObserverIT} on JDK 25 (at /usr/lib/jvm/temurin-25-jdk-amd64; skipped, with that reason, where it is not installed). */
class PauseObserverOnJdk25IT extends AbstractPauseObserverIT {
    @Override protected Path javaHome() { return JDK25; }
}
