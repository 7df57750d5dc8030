package org.chainfilter.btcwire;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads a vector resource: {@code #} lines cite the source, {@code key=value} lines hold the published figures.
 */
final class WireVectors {
    private WireVectors() {
    }

    static Map<String, String> load(String name) {
        InputStream in = WireVectors.class.getResourceAsStream(name + ".txt");
        if (in == null) {
            throw new IllegalArgumentException("no vector resource " + name + ".txt");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    int eq = line.indexOf('=');
                    fields.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return fields;
    }
}
