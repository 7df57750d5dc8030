package org.chainfilter.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chainfilter.btcwire.Block;
import org.chainfilter.common.Hex;
import picocli.CommandLine.Option;

/**
 * The input parsing the Bitcoin commands share: a value given inline or in a file, lists of hex strings, and the
 * {@code --block} / {@code --block-file} pair as a picocli mixin. A refusal is an {@link IllegalArgumentException}
 * naming the options or the bad value, which {@link ErrorHandler} prints as one line with exit status 1.
 */
final class CliInputs {
    /**
     * The most bytes a value file ({@code --block-file}, {@code --bloom-file}) may hold: a block of Core's 4,000,000
     * serialized bytes is 8,000,000 hex digits, and this leaves room for line breaks and white space.
     */
    static final int MAX_VALUE_FILE_BYTES = 16 << 20;

    private CliInputs() {
    }

    /**
     * Refuses a path that names a directory, naming the option and the path (reading one fails with a bare
     * "Is a directory").
     */
    static Path regularFile(Path file, String option) {
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(option + " " + file + " is a directory, not a file");
        }
        return file;
    }

    /**
     * The text of {@code file}, read only up to {@code maxBytes}: a longer file (or an endless one such as a device)
     * is refused with its name and the limit instead of being read whole into memory.
     */
    static String readText(Path file, String option, int maxBytes) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(regularFile(file, option))) {
            bytes = in.readNBytes(maxBytes + 1);
        }
        if (bytes.length > maxBytes) {
            throw new IllegalArgumentException(
                    option + " " + file + " holds more than " + maxBytes + " bytes, the most this option reads");
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * The text of whichever of {@code textOption} (the value itself) and {@code fileOption} (a file holding it) was
     * given, stripped of surrounding white space.
     *
     * @throws IllegalArgumentException if both or neither were given
     */
    static String oneOf(String text, Path file, String textOption, String fileOption) throws IOException {
        if ((text == null) == (file == null)) {
            throw new IllegalArgumentException("give exactly one of " + textOption + " and " + fileOption);
        }
        return text != null ? text.strip() : readText(file, fileOption, MAX_VALUE_FILE_BYTES).strip();
    }

    /** Each string decoded from hex, in order ({@code ""} is an empty byte string). */
    static List<byte[]> decodeHex(List<String> hexStrings) {
        List<byte[]> decoded = new ArrayList<>(hexStrings.size());
        for (String hex : hexStrings) {
            decoded.add(Hex.decode(hex));
        }
        return decoded;
    }

    /** Each line of {@code file} decoded from hex, stripped first, in order (an empty line is an empty byte string). */
    static List<byte[]> decodeHexLines(Path file, String option) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(regularFile(file, option))) {
            lines.add(line.strip());
        }
        return decodeHex(lines);
    }

    /** {@code --block HEX} or {@code --block-file FILE}: exactly one of them. Use with {@code @Mixin}. */
    static final class BlockSource {
        @Option(names = "--block", paramLabel = "HEX", description = "The serialized block (with witness) as hex.")
        private String hex;

        @Option(names = "--block-file", paramLabel = "FILE", description = "A file holding the block as hex.")
        private Path file;

        /** The block given by either option. */
        Block read() throws IOException {
            return Block.fromHex(oneOf(hex, file, "--block", "--block-file"));
        }
    }
}
