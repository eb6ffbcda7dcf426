package io.loadsmith.stall.control;

import java.util.List;

/**
 * A page of recorded stalls.
 *
 * @param stalls    the stalls, oldest first
 * @param nextIndex the {@code sinceIndex} that asks for the next page (the last index returned + 1, or the
 *                  {@code sinceIndex} asked for when the page is empty)
 * @param more      true if the page was cut at {@link StallController#PAGE_SIZE} and more stalls match
 * @param dropped   how many of the oldest records were dropped to keep memory bounded (all runs)
 */
public record StallPage(List<StallRecord> stalls, long nextIndex, boolean more, long dropped) {

    public StallPage {
        stalls = List.copyOf(stalls);
    }
}
