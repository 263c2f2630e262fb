package app;

import java.util.List;
import java.util.stream.Collectors;

public final class Names {
    private Names() {}

    /** The names, trimmed, without the empty ones, in order. */
    public static List<String> clean(List<String> names) {
        return names.stream()
            .map(String::trim)
            .filter(name -> !name.isEmpty())
            .collect(Collectors.toList());
    }
}
