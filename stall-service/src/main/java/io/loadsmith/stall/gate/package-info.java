/**
 * Where a request is held: {@link io.loadsmith.stall.gate.StallGate#pass()} on a request thread costs one
 * volatile read while no stall window is open, and holds the thread until the window's end while one is.
 */
package io.loadsmith.stall.gate;
