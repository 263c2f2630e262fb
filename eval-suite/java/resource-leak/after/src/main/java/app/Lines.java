package app;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

public final class Lines {
    private Lines() {}

    /** Number of lines of the file at {@code path}; blank lines too unless {@code skipBlank}. */
    public static long count(Path path, boolean skipBlank) throws IOException {
        BufferedReader reader = Files.newBufferedReader(path);
        long n = 0;
        String line;
        while ((line = reader.readLine()) != null) {
            if (!skipBlank || !line.isBlank()) {
                n++;
            }
        }
        return n;
    }
}
