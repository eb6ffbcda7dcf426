/**
 * The admin API ({@code /arm}, {@code /disarm}, {@code /stalls}, {@code /pauses}, {@code /clock},
 * {@code /health}, {@code /metrics}) on the JDK's own HTTP server: {@link io.loadsmith.stall.admin.AdminServer}
 * and its {@link io.loadsmith.stall.admin.AdminConfig}; the rest is package-private (the router, the token
 * check, one endpoint class per call, the request reader, the JSON and Prometheus writers, the workers that
 * bound slow clients). docs/admin-api.md is the protocol.
 */
package io.loadsmith.stall.admin;
