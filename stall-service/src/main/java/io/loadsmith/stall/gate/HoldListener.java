package io.loadsmith.stall.gate;

/**
 * Told of every request a {@link GateWindow} holds, on the held thread itself: {@link #holding()} as its hold
 * begins (after the window counted it), {@link #released(Object)} once it is let go. The stall controller
 * gives one to each window it opens, for the per-request JFR event ({@code loadsmith.HeldRequest}).
 *
 * <p>Both run only on a thread the window holds, never on the idle path. They should be quick and should not
 * throw; the window swallows what they throw, and a hold whose {@code holding()} threw is released as any other.
 */
public interface HoldListener {

    /**
     * The calling thread is about to be held.
     *
     * @return what {@link #released(Object)} is handed for this hold; null: nothing to do at the release
     */
    Object holding();

    /** The calling thread has been let go; {@code holding} is what {@link #holding()} returned for it (not null). */
    void released(Object holding);
}
