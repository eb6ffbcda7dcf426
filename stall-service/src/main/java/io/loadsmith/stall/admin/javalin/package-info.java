/**
 * {@link io.loadsmith.stall.admin.javalin.LoadsmithPlugin}: the gate and the admin API embedded in a
 * Javalin 7 service, without the agent. Needs Javalin on the class path (an optional dependency of
 * stall-service); nothing else in stall-service refers to this package.
 */
package io.loadsmith.stall.admin.javalin;
