package io.loadsmith.stall.observe;

import java.util.List;

/**
 * A page of observed pauses.
 *
 * @param pauses    the windows, by index
 * @param nextIndex the {@code sinceIndex} that asks for the next page (the last index returned + 1, or the
 *                  {@code sinceIndex} asked for when the page is empty)
 * @param more      true if the page was cut at {@link PauseObserver#PAGE_SIZE} and more windows match
 * @param dropped   how many of the oldest windows were dropped to keep memory bounded
 */
public record PausePage(List<PauseWindow> pauses, long nextIndex, boolean more, long dropped) {

    public PausePage {
        pauses = List.copyOf(pauses);
    }
}
