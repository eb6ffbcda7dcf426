/**
 * The admin API ({@code /arm}, {@code /disarm}, {@code /stalls}, {@code /clock}, {@code /health},
 * {@code /metrics}) on the JDK's own HTTP server: {@link io.loadsmith.stall.admin.AdminServer} and its
 * {@link io.loadsmith.stall.admin.AdminConfig}. docs/admin-api.md is the protocol.
 */
package io.loadsmith.stall.admin;
