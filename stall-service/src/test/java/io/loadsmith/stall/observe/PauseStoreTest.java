package io.loadsmith.stall.observe;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PauseStoreTest {

    private static PauseWindow sleeper(long start, long end, String label) {
        return new PauseWindow(-1, PauseSource.SLEEPER, label, start, end, null, null, 0);
    }

    private static PauseWindow safepoint(long start, long end) {
        return new PauseWindow(-1, PauseSource.SAFEPOINT, "ThreadDump", start, end, "ThreadDump", null, 10);
    }

    @Test
    void windows_are_indexed_in_the_order_they_are_added_and_paged_from_an_index() {
        PauseStore store = new PauseStore(10, 2);
        store.add(safepoint(100, 200));
        store.add(sleeper(50, 300, PauseWindow.ATTRIBUTED));
        store.add(sleeper(400, 500, PauseWindow.HOST));

        PausePage first = store.page(0);
        PausePage second = store.page(first.nextIndex());

        assertThat(first.pauses()).extracting(PauseWindow::index).containsExactly(0L, 1L);
        assertThat(first.more()).isTrue();
        assertThat(first.nextIndex()).isEqualTo(2);
        assertThat(second.pauses()).extracting(PauseWindow::index).containsExactly(2L);
        assertThat(second.more()).isFalse();
        assertThat(store.page(3).pauses()).isEmpty();
        assertThat(store.page(3).nextIndex()).isEqualTo(3);
    }

    @Test
    void it_keeps_at_most_its_maximum_and_says_how_many_it_keeps() {
        PauseStore store = new PauseStore(2, 10);
        assertThat(store.kept()).isZero();
        store.add(safepoint(100, 200));
        assertThat(store.kept()).isEqualTo(1);
        store.add(sleeper(50, 300, PauseWindow.ATTRIBUTED));
        store.add(sleeper(400, 500, PauseWindow.HOST));

        assertThat(store.kept()).isEqualTo(2);
        assertThat(store.maxRecords()).isEqualTo(2);
    }

    @Test
    void the_oldest_windows_are_dropped_and_counted_and_the_totals_keep_them() {
        PauseStore store = new PauseStore(2, 10);
        store.add(safepoint(100, 200));
        store.add(sleeper(50, 300, PauseWindow.ATTRIBUTED));
        store.add(sleeper(400, 500, PauseWindow.HOST));

        PausePage page = store.page(0);

        assertThat(page.pauses()).extracting(PauseWindow::index).containsExactly(1L, 2L);
        assertThat(page.dropped()).isEqualTo(1);
        assertThat(store.totals()).isEqualTo(new PauseTotals(1, 100, 2, 350, 1, 1));
    }
}
