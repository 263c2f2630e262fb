package app;

public final class Pause {
    private Pause() {}

    /** Waits {@code millis} ms. */
    public static void pause(long millis) throws InterruptedException {
        Thread.sleep(millis);
    }

    /**
     * Waits {@code millis} ms; returns false when interrupted, with the thread's interrupt flag set
     * again so the caller still sees it.
     */
    public static boolean pauseQuietly(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
