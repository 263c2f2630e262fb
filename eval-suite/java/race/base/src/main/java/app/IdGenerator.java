package app;

public final class IdGenerator {
    private long next = 1;

    /** A new id, unique within this generator; safe to call from several threads. */
    public synchronized long nextId() {
        return next++;
    }
}
