package app;

import java.util.ArrayList;
import java.util.List;

public final class Names {
    private Names() {}

    /** The names, trimmed, without the empty ones, in order. */
    public static List<String> clean(List<String> names) {
        List<String> out = new ArrayList<>();
        for (String name : names) {
            String trimmed = name.trim();
            if (!trimmed.isEmpty()) {
                out.add(trimmed);
            }
        }
        return out;
    }
}
