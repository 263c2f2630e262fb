package app;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

public final class Lines {
    private Lines() {}

    /** Number of lines of the file at {@code path}. */
    public static long count(Path path) throws IOException {
        try (BufferedReader reader = Files.newBufferedReader(path)) {
            return reader.lines().count();
        }
    }
}
