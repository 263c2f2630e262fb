package app;

public final class IdGenerator {
    private final String prefix;
    private long next = 1;

    public IdGenerator(String prefix) {
        this.prefix = prefix;
    }

    /** A new id, unique within this generator; safe to call from several threads. */
    public String nextId() {
        return prefix + "-" + next++;
    }
}
