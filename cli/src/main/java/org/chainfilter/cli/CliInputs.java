package org.chainfilter.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.chainfilter.btcwire.Block;
import org.chainfilter.btcwire.Hash256;
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
    /**
     * The most bytes a list file ({@code --spent-file}: one hex script per line) may hold: the spent scripts of a
     * block are bounded by the block's inputs, and real blocks' lists are a few megabytes of hex.
     */
    static final int MAX_LIST_FILE_BYTES = 64 << 20;

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

    /** The file name that means standard input, as for {@code eth bloom} and {@code --blooms}. */
    static final String STDIN = "-";

    /** Standard input, left open when the reader is closed. */
    private static final class NonClosing extends java.io.FilterInputStream {
        NonClosing(InputStream in) {
            super(in);
        }

        @Override
        public void close() {
            // Standard input stays open.
        }
    }

    /**
     * The text of {@code file} ({@value #STDIN}: standard input), read only up to {@code maxBytes}: a longer file (or
     * an endless one such as a device) is refused with its name and the limit instead of being read whole into
     * memory.
     */
    static String readText(Path file, String option, int maxBytes) throws IOException {
        byte[] bytes;
        boolean stdin = file.toString().equals(STDIN);
        try (InputStream in = stdin ? new NonClosing(System.in) : Files.newInputStream(regularFile(file, option))) {
            bytes = in.readNBytes(maxBytes + 1);
        } catch (NoSuchFileException e) {
            // The bare "no such file: F" did not say which of a command's file options named it.
            throw new IllegalArgumentException(option + " " + file + ": no such file", e);
        }
        if (bytes.length > maxBytes) {
            throw new IllegalArgumentException(
                    option + " " + file + " holds more than " + maxBytes + " bytes, the most this option reads");
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * The hex value of whichever of {@code textOption} (the value itself, stripped of surrounding white space) and
     * {@code fileOption} (a file holding it, see {@link #hexValueFile}) was given.
     *
     * @throws IllegalArgumentException if both or neither were given
     */
    static String oneOf(String text, Path file, String textOption, String fileOption) throws IOException {
        if ((text == null) == (file == null)) {
            throw new UsageException("give exactly one of " + textOption + " and " + fileOption);
        }
        return text != null ? text.strip() : hexValueFile(file, fileOption);
    }

    private static final Pattern WHITE_SPACE = Pattern.compile("\\s+");

    /** White space as {@link #WHITE_SPACE} ({@code \s}) has it: space, tab, line feed, vertical tab, form feed, CR. */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
    }

    /**
     * The hex value in {@code file} (up to {@link #MAX_VALUE_FILE_BYTES}), its white space removed: one line, or
     * wrapped over many as {@code xxd -p} and many tools write hex.
     */
    static String hexValueFile(Path file, String option) throws IOException {
        String text = readText(file, option, MAX_VALUE_FILE_BYTES);
        // A character that is neither hex nor white space is named where it stands in the file (its position among
        // the digits alone would not be found in an editor); an 0x may open the value, after white space.
        int line = 1;
        int lineStart = 0;
        int first = 0;
        while (first < text.length() && isSpace(text.charAt(first))) {
            first++;
        }
        int prefixEnd = text.startsWith("0x", first) || text.startsWith("0X", first) ? first + 2 : first;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n')) {
                line++;
                lineStart = i + 1;
            } else if (i >= first && i < prefixEnd || isSpace(c)) {
                continue;
            } else if (Character.digit(c, 16) < 0 || c > 0x7f) {
                throw new IllegalArgumentException(option + " " + file + ": not a hex digit: '" + c + "' at line "
                        + line + ", column " + (i - lineStart + 1));
            }
        }
        String digits = WHITE_SPACE.matcher(text).replaceAll("");
        if (digits.isEmpty() || digits.equalsIgnoreCase("0x")) {
            // Else the parser of the value would report missing bytes without naming the file.
            throw new IllegalArgumentException(option + " " + file + " holds no hex value"
                    + (text.isEmpty() ? " (it is empty)" : ""));
        }
        return digits;
    }

    /** The longest value a refusal quotes; a longer one (a block, a filter) is named by its option alone. */
    static final int MAX_QUOTED_CHARS = 80;

    /**
     * {@code text} decoded from hex, stripped first; a refusal names where the text came from
     * ({@code "--insert 'zz': not a hex digit: 'z' at position 0"}), since the bare message does not say which of a
     * command's hex values is wrong.
     *
     * @param source the option or parameter that gave the text, e.g. {@code "--tx"}
     */
    static byte[] hex(String source, String text) {
        try {
            return Hex.decode(text.strip());
        } catch (IllegalArgumentException e) {
            throw refusal(source, text, e);
        }
    }

    /**
     * {@code text} decoded from hex as exactly {@code length} bytes, the length checked from the digit count before
     * anything is decoded; a refusal names {@code source} as {@link #hex(String, String)} does
     * ({@code "--topic 'zz': topic is 1 bytes; it must be exactly 32 bytes"}).
     *
     * @param what the kind of value, as the length refusal names it, e.g. {@code "topic"}
     */
    static byte[] hex(String source, String text, int length, String what) {
        try {
            return Hex.decode(text.strip(), length, what);
        } catch (IllegalArgumentException e) {
            throw refusal(source, text, e);
        }
    }

    /** A 32-byte hash given in display (RPC) order; a refusal names {@code source} as {@link #hex} does. */
    static Hash256 displayHash(String source, String text) {
        try {
            return Hash256.fromDisplayHex(text.strip());
        } catch (IllegalArgumentException e) {
            throw refusal(source, text, e);
        }
    }

    private static IllegalArgumentException refusal(String source, String text, IllegalArgumentException e) {
        String value = text.strip();
        String quoted = value.length() <= MAX_QUOTED_CHARS ? " '" + value + "'" : "";
        return new IllegalArgumentException(source + quoted + ": " + e.getMessage(), e);
    }

    /** Each string decoded from hex as {@link #hex} does, in order ({@code ""} is an empty byte string). */
    static List<byte[]> decodeHex(String source, List<String> hexStrings) {
        List<byte[]> decoded = new ArrayList<>(hexStrings.size());
        for (String hex : hexStrings) {
            decoded.add(hex(source, hex));
        }
        return decoded;
    }

    /**
     * Each line of {@code file} decoded from hex, stripped first, in order (an empty line is an empty byte string).
     * The file is read only up to {@link #MAX_LIST_FILE_BYTES}.
     */
    static List<byte[]> decodeHexLines(Path file, String option) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String line : readText(file, option, MAX_LIST_FILE_BYTES).split("\n", -1)) {
            lines.add(line.strip());
        }
        // Files.readAllLines gave no line for the end of a file that ends in a line break; neither does this.
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        List<byte[]> decoded = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            decoded.add(hex("line " + (i + 1) + " of " + option + " " + file, lines.get(i)));
        }
        return decoded;
    }

    /**
     * The lines of a text stream, each refused past a length, so an endless line (a device, a file of one huge line)
     * cannot fill the memory as {@link java.io.BufferedReader#readLine} would. Lines end at {@code \n}; a
     * {@code \r} before it stays in the line (callers strip lines).
     */
    static final class BoundedLines {
        private final Reader in;
        private final int maxChars;
        private final String source;
        private final char[] buffer = new char[8192];
        private int position;
        private int end;
        private long lineNumber;

        /** @param source how a refusal names the input, e.g. {@code "--blooms FILE"} */
        BoundedLines(Reader in, int maxChars, String source) {
            this.in = in;
            this.maxChars = maxChars;
            this.source = source;
        }

        /** The number of the line {@link #next} returned last, from 1. */
        long lineNumber() {
            return lineNumber;
        }

        /**
         * The next line without its line break, or null at the end of the input.
         *
         * @throws IllegalArgumentException if the line is longer than the limit
         */
        String next() throws IOException {
            StringBuilder line = new StringBuilder();
            boolean any = false;
            while (true) {
                if (position == end) {
                    int read = in.read(buffer, 0, buffer.length);
                    if (read <= 0) {
                        if (!any) {
                            return null;
                        }
                        lineNumber++;
                        return line.toString();
                    }
                    position = 0;
                    end = read;
                }
                any = true;
                int start = position;
                while (position < end && buffer[position] != '\n') {
                    position++;
                }
                if (line.length() + (position - start) > maxChars) {
                    throw new IllegalArgumentException("line " + (lineNumber + 1) + " of " + source + " is longer than "
                            + maxChars + " characters, the most a line may hold");
                }
                line.append(buffer, start, position - start);
                if (position < end) {
                    position++;
                    lineNumber++;
                    return line.toString();
                }
            }
        }
    }

    /** {@code --block HEX} or {@code --block-file FILE}: exactly one of them. Use with {@code @Mixin}. */
    static final class BlockSource {
        @Option(names = "--block", paramLabel = "HEX", description = "The serialized block (with witness) as hex.")
        private String hex;

        @Option(names = "--block-file", paramLabel = "FILE",
                description = "A file holding the block as hex (line breaks allowed); '-' reads stdin.")
        private Path file;

        /** Whether the block is read from standard input ({@code --block-file -}). */
        boolean readsStdin() {
            return file != null && file.toString().equals(STDIN);
        }

        /** The block given by either option; a refusal of its hex names the option (and the file). */
        Block read() throws IOException {
            String source = hex != null ? "--block" : "--block-file " + file;
            return Block.parse(CliInputs.hex(source, oneOf(hex, file, "--block", "--block-file")));
        }
    }
}
