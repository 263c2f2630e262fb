package app;

public final class Text {
    private Text() {}

    /** The first {@code max} characters of {@code s}, with "..." when it was longer. */
    public static String truncate(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        return s.substring(0, max) + "...";
    }
}
