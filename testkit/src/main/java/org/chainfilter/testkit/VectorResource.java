package org.chainfilter.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the text form the modules' tests keep published vectors in: a class-path resource {@code <name>.txt} next to
 * the test class that uses it, whose {@code #} lines cite the source (repository, path, test, commit) and whose
 * {@code key=value} lines hold the figures. Blank lines are ignored; a value runs to the end of its line and may itself
 * contain {@code =}.
 *
 * <p>A resource that is missing, a line that is neither a comment nor {@code key=value}, an empty key, or a key given
 * twice is refused with an {@link IllegalArgumentException} naming the resource and the line, so a damaged vector
 * file fails its test loudly instead of feeding it a wrong or missing figure.
 */
public final class VectorResource {
    private VectorResource() {
    }

    /**
     * The fields of {@code <name>.txt}, resolved against {@code anchor}'s package, in file order.
     *
     * @return an unmodifiable map from key to value
     */
    public static Map<String, String> load(Class<?> anchor, String name) {
        String resource = name + ".txt";
        InputStream in = anchor.getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalArgumentException("no vector resource " + resource + " next to " + anchor.getName());
        }
        Map<String, String> fields = new LinkedHashMap<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            int lineNumber = 0;
            for (String line; (line = reader.readLine()) != null; ) {
                lineNumber++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int eq = line.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException(
                            resource + " line " + lineNumber + " is neither a # comment nor key=value");
                }
                String key = line.substring(0, eq);
                if (fields.putIfAbsent(key, line.substring(eq + 1)) != null) {
                    throw new IllegalArgumentException(resource + " line " + lineNumber + " repeats the key " + key);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Collections.unmodifiableMap(fields);
    }

    /** One field of {@code <name>.txt}; refused with the keys the resource does have when it is absent. */
    public static String field(Class<?> anchor, String name, String key) {
        Map<String, String> fields = load(anchor, name);
        String value = fields.get(key);
        if (value == null) {
            throw new IllegalArgumentException(name + ".txt has no key " + key + "; its keys are " + fields.keySet());
        }
        return value;
    }
}
