package io.loadsmith.agent.it;

import java.nio.file.Path;

/**
 * {@link AbstractAppCdsIT} on JDK 25 (at /usr/lib/jvm/temurin-25-jdk-amd64; skipped, with that reason,
 * where it is not installed).
 */
class AppCdsOnJdk25IT extends AbstractAppCdsIT {
    @Override protected Path javaHome() { return ChildJvm.JDK25; }
}
