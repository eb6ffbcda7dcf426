package io.loadsmith.stall.clock;

/** The only caller of {@code System.nanoTime()} in loadsmith. */
enum SystemClock implements Clock {
    INSTANCE;

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }
}
