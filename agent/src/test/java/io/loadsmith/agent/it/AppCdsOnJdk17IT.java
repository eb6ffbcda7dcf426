package io.loadsmith.agent.it;

/** {@link AbstractAppCdsIT} on the JDK the build runs on (17). */
class AppCdsOnJdk17IT extends AbstractAppCdsIT {
}
