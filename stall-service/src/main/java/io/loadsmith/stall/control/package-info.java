/**
 * When windows open and close: {@link io.loadsmith.stall.control.StallController} runs an armed
 * {@link io.loadsmith.stall.plan.StallPlan} on a gate, on time, and records every window as it really
 * happened ({@link io.loadsmith.stall.control.StallRecord}).
 */
package io.loadsmith.stall.control;
