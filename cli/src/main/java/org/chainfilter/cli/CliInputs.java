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
import java.util.Locale;
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

    /** Refuses two file options that both read standard input ({@value #STDIN}): the first would take it all. */
    static void atMostOneStdin(String firstOption, Path first, String secondOption, Path second) {
        if (first != null && second != null && first.toString().equals(STDIN) && second.toString().equals(STDIN)) {
            throw new UsageException(firstOption + " and " + secondOption + " both read stdin ('-'); give one of them"
                    + " a file");
        }
    }

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
     * Opens {@code file} ({@value #STDIN}: standard input, left open), naming the option when there is no such file (the
     * bare "no such file: F" did not say which of a command's file options named it).
     */
    static InputStream open(Path file, String option) throws IOException {
        if (file.toString().equals(STDIN)) {
            return new NonClosing(System.in);
        }
        try {
            return Files.newInputStream(regularFile(file, option));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(option + " " + file + ": no such file", e);
        }
    }

    /**
     * The bytes of a text file, read a buffer at a time and never past {@code maxBytes}: a longer file (or an endless
     * one such as a device) is refused with its name and the limit as soon as the byte past the limit arrives.
     */
    private static final class BoundedBytes {
        private final InputStream in;
        private final String refusal;
        private final long maxBytes;
        private final byte[] buffer = new byte[8192];
        private int position;
        private int end;
        private long read;

        BoundedBytes(InputStream in, Path file, String option, long maxBytes) {
            this.in = in;
            this.maxBytes = maxBytes;
            this.refusal = option + " " + file + " holds more than " + maxBytes + " bytes, the most this option reads";
        }

        /** The next byte, 0..255, or -1 at the end. */
        int next() throws IOException {
            if (position == end) {
                end = in.read(buffer, 0, (int) Math.min(buffer.length, maxBytes - read + 1));
                position = 0;
                if (end <= 0) {
                    end = 0;
                    return -1;
                }
                read += end;
                if (read > maxBytes) {
                    throw new IllegalArgumentException(refusal);
                }
            }
            return buffer[position++] & 0xff;
        }
    }

    /** A growable run of bytes, read back as a string (ASCII: one byte a character, half a {@link StringBuilder}). */
    private static final class AsciiBuffer {
        private byte[] bytes = new byte[256];
        private int length;

        void add(int b) {
            if (length == bytes.length) {
                bytes = java.util.Arrays.copyOf(bytes, bytes.length * 2);
            }
            bytes[length++] = (byte) b;
        }

        int length() {
            return length;
        }

        void clear() {
            length = 0;
        }

        String text() {
            return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
        }

        String utf8() {
            return new String(bytes, 0, length, StandardCharsets.UTF_8);
        }
    }

    /**
     * How a refusal shows a byte that is not a hex digit: a printable ASCII character as itself ({@code 'z'}), a
     * control character by its code point ({@code U+0000}: raw, it would reach the terminal), and the first byte of a
     * non-ASCII character as a byte.
     */
    private static String describeByte(int b) {
        if (b > 0x20 && b < 0x7f) {
            return "'" + (char) b + "'";
        }
        return b < 0x80 ? String.format(Locale.ROOT, "U+%04X", b)
                : String.format(Locale.ROOT, "byte 0x%02x (not ASCII)", b);
    }

    /**
     * The hex value of whichever of {@code textOption} (the value itself, stripped of surrounding white space) and
     * {@code fileOption} (a file holding it, see {@link #hexValueFile}) was given.
     *
     * @throws IllegalArgumentException if both or neither were given
     */
    static String oneOf(String text, Path file, String textOption, String fileOption) throws IOException {
        requireOneOf(text, file, textOption, fileOption);
        return text != null ? text.strip() : hexValueFile(file, fileOption);
    }

    /**
     * Refuses, as a malformed command line, both or neither of {@code textOption} and {@code fileOption}. A command
     * with two inputs calls this for both before it reads either, so that a value refused as input (status 1) never
     * hides options that do not go together (status 2).
     */
    static void requireOneOf(String text, Path file, String textOption, String fileOption) {
        if ((text == null) == (file == null)) {
            throw new UsageException("give exactly one of " + textOption + " and " + fileOption);
        }
    }

    /**
     * The hex value in {@code file} (up to {@link #MAX_VALUE_FILE_BYTES}), its white space removed: one line, or
     * wrapped over many as {@code xxd -p} and many tools write hex. Read as it is checked: a byte that is neither a hex
     * digit nor white space is refused where it stands (line and column, as an editor shows them) without reading
     * further, so a wrong file ({@code /dev/zero}, a binary) costs nothing, and only the digits are kept.
     */
    static String hexValueFile(Path file, String option) throws IOException {
        AsciiBuffer digits = new AsciiBuffer();
        long total = 0;
        try (InputStream in = open(file, option)) {
            BoundedBytes bytes = new BoundedBytes(in, file, option, MAX_VALUE_FILE_BYTES);
            int line = 1;
            long column = 0;
            boolean afterCr = false;
            boolean started = false; // a character other than white space has been read
            boolean prefixOpen = false; // the value's first character was a 0, directly before this one
            for (int b = bytes.next(); b >= 0; b = bytes.next()) {
                total++;
                if (b == '\r' || b == '\n') {
                    if (b == '\r' || !afterCr) {
                        line++;
                    }
                    afterCr = b == '\r';
                    column = 0;
                    prefixOpen = false;
                    continue;
                }
                afterCr = false;
                column++;
                if (b == ' ' || b == '\t' || b == 0x0b || b == '\f') {
                    prefixOpen = false;
                    continue;
                }
                if ((b == 'x' || b == 'X') && prefixOpen) {
                    // An 0x opening the value, after white space: not a digit.
                    digits.clear();
                    prefixOpen = false;
                    continue;
                }
                if (Character.digit(b, 16) < 0) {
                    throw new IllegalArgumentException(option + " " + file + ": not a hex digit: " + describeByte(b)
                            + " at line " + line + ", column " + column);
                }
                prefixOpen = b == '0' && !started;
                started = true;
                digits.add(b);
            }
        }
        if (digits.length() == 0) {
            // Else the parser of the value would report missing bytes without naming the file.
            throw new IllegalArgumentException(option + " " + file + " holds no hex value"
                    + (total == 0 ? " (it is empty)" : ""));
        }
        return digits.text();
    }

    /**
     * {@code parse} of the value {@code source} gave, a refusal of its bytes naming {@code source}: with two inputs
     * (a filter and a transaction) "block header needs 80 bytes" alone did not say which was short.
     */
    static <T> T parsed(String source, java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
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

    /**
     * {@code source 'value': reason}. Where the library named the value in its own words around a plain hex error
     * ({@code Hex.decode(hex, length, what)}: "topic: not a hex digit ..."), the reason is that error alone, as the
     * option and the value already say what was being read.
     */
    private static IllegalArgumentException refusal(String source, String text, IllegalArgumentException e) {
        String value = text.strip();
        String quoted = value.length() <= MAX_QUOTED_CHARS ? " '" + value + "'" : "";
        String reason = e.getCause() instanceof IllegalArgumentException inner ? inner.getMessage() : e.getMessage();
        return new IllegalArgumentException(source + quoted + ": " + reason, e);
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
     * The file is read only up to {@link #MAX_LIST_FILE_BYTES}, a line at a time, each decoded as it ends; a control
     * character, which no hex line holds, is refused where it stands without reading further.
     */
    static List<byte[]> decodeHexLines(Path file, String option) throws IOException {
        List<byte[]> decoded = new ArrayList<>();
        AsciiBuffer line = new AsciiBuffer();
        try (InputStream in = open(file, option)) {
            BoundedBytes bytes = new BoundedBytes(in, file, option, MAX_LIST_FILE_BYTES);
            boolean open = false; // a line has begun and not yet ended
            for (int b = bytes.next(); b >= 0; b = bytes.next()) {
                if (b == '\n') {
                    decoded.add(hexLine(file, option, decoded.size() + 1, line));
                    line.clear();
                    open = false;
                    continue;
                }
                open = true;
                // White space as String.strip takes it off a line's ends (the file separators 0x1c-0x1f too).
                boolean space = b == ' ' || b == '\t' || b == '\r' || b == 0x0b || b == '\f' || (b >= 0x1c && b <= 0x1f);
                // Bytes of non-ASCII characters are kept: a line is decoded as UTF-8 when it ends and stripped as
                // String.strip does (an em space, U+2003, at its end is white space, as it always was).
                if (!space && (b < 0x20 || b == 0x7f)) {
                    throw new IllegalArgumentException("line " + (decoded.size() + 1) + " of " + option + " " + file
                            + ": not a hex digit: " + describeByte(b) + " at column " + (line.length() + 1));
                }
                line.add(b);
            }
            // A file that ends in a line break has no line after it (as Files.readAllLines), nor one that ends in
            // white space after its last line break.
            if (open && !line.utf8().isBlank()) {
                decoded.add(hexLine(file, option, decoded.size() + 1, line));
            }
        }
        return decoded;
    }

    private static byte[] hexLine(Path file, String option, int number, AsciiBuffer line) {
        return hex("line " + number + " of " + option + " " + file, line.utf8().strip());
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

    /** The most transactions a block holds: Core's MAX_BLOCK_WEIGHT over the weight of the lightest transaction. */
    static final int MAX_BLOCK_TRANSACTIONS = 4_000_000 / 240;

    /** {@code --block HEX} or {@code --block-file FILE}: exactly one of them. Use with {@code @Mixin}. */
    static final class BlockSource {
        @Option(names = "--block", paramLabel = "HEX", description = "The serialized block (with witness) as hex.")
        private String hex;

        @Option(names = "--block-file", paramLabel = "FILE",
                description = "A file holding the block as hex (line breaks allowed); '-' reads stdin.")
        private Path file;

        /** The {@code --block-file} given, or null. */
        Path file() {
            return file;
        }

        /** Refuses both or neither of {@code --block} and {@code --block-file}, before anything is read. */
        void requireOne() {
            requireOneOf(hex, file, "--block", "--block-file");
        }

        /** Whether the block is read from standard input ({@code --block-file -}). */
        boolean readsStdin() {
            return file != null && file.toString().equals(STDIN);
        }

        /**
         * The block given by either option; a refusal of its hex names the option (and the file). A block no node would
         * accept is refused too, as a merkleblock or filter built on it would be refused by every client: more
         * transactions than a block can hold ({@value #MAX_BLOCK_TRANSACTIONS}), a header whose merkle root its
         * transactions do not hash to, or a transaction list mutated as CVE-2012-2459 describes.
         */
        Block read() throws IOException {
            String source = hex != null ? "--block" : "--block-file " + file;
            byte[] bytes = CliInputs.hex(source, oneOf(hex, file, "--block", "--block-file"));
            Block block = parsed(source, () -> Block.parse(bytes));
            int count = block.transactions().size();
            if (count > MAX_BLOCK_TRANSACTIONS) {
                throw new IllegalArgumentException(source + ": the block holds " + count + " transactions; a block"
                        + " holds at most " + MAX_BLOCK_TRANSACTIONS + " (4,000,000 weight units / 240, the lightest"
                        + " transaction)");
            }
            if (!block.merkleRootMatches()) {
                Hash256 computed = block.computeMerkleRoot();
                throw new IllegalArgumentException(source + (computed.equals(block.header().merkleRoot())
                        ? ": the block's transaction list is mutated (a repeated last pair, CVE-2012-2459), so no node"
                                + " accepts it"
                        : ": the block's transactions hash to merkle root " + computed + ", not its header's "
                                + block.header().merkleRoot() + ", so the header does not commit to them"));
            }
            return block;
        }
    }
}
