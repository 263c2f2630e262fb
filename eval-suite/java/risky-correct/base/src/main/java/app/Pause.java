package app;

public final class Pause {
    private Pause() {}

    /** Waits {@code millis} ms. */
    public static void pause(long millis) throws InterruptedException {
        Thread.sleep(millis);
    }
}
