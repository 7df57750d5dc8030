package org.chainfilter.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliInputsTest {

    private static List<String> lines(String text, int maxChars) throws IOException {
        CliInputs.BoundedLines lines = new CliInputs.BoundedLines(new StringReader(text), maxChars, "test");
        List<String> read = new ArrayList<>();
        for (String line; (line = lines.next()) != null; ) {
            read.add(line);
            assertEquals(read.size(), lines.lineNumber());
        }
        return read;
    }

    /** The lines BufferedReader.readLine gives for \n-ended text, with a \r kept for the caller's strip. */
    @Test
    void boundedLinesSplitAtLineBreaks() throws IOException {
        assertEquals(List.of(), lines("", 10));
        assertEquals(List.of(""), lines("\n", 10));
        assertEquals(List.of("a", "", "b"), lines("a\n\nb\n", 10));
        assertEquals(List.of("a", "b"), lines("a\nb", 10));
        assertEquals(List.of("a\r", "b\r"), lines("a\r\nb\r\n", 10));
        String across = "x".repeat(20_000);
        assertEquals(List.of("y", across, "z"), lines("y\n" + across + "\nz", 20_000));
    }

    @Test
    void boundedLinesRefuseALineOverTheLimit() throws IOException {
        assertEquals(List.of("0123456789"), lines("0123456789\n", 10));
        var e = assertThrows(IllegalArgumentException.class, () -> lines("ok\n0123456789A\n", 10));
        assertEquals("line 2 of test is longer than 10 characters, the most a line may hold", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> lines("z".repeat(100_000), 10_000));
        assertEquals("line 1 of test is longer than 10000 characters, the most a line may hold", e.getMessage());
    }

    /** Spent-script lists decode as Files.readAllLines did: stripped lines, none for a final line break. */
    @Test
    void hexLinesDecodeAsBefore(@TempDir Path dir) throws IOException {
        assertEquals(List.of("00", "", "abcd"), hexLines(dir, "00 \r\n\nabcd\n"));
        assertEquals(List.of(), hexLines(dir, ""));
    }

    /** The lines of a list file holding {@code content}, decoded and shown as hex again. */
    private static List<String> hexLines(Path dir, String content) throws IOException {
        Path file = Files.writeString(dir.resolve("list.hex"), content);
        return CliInputs.decodeHexLines(file, "--spent-file").stream().map(Hex::encode).toList();
    }

    /**
     * A refusal quotes the value when it has at most 80 characters (stripped), and names the option alone for a longer
     * one (a block or a filter would bury the reason).
     */
    @Test
    void aRefusalQuotesValuesOfUpTo80Characters() {
        String eighty = "0".repeat(79) + "z";
        var e = assertThrows(IllegalArgumentException.class, () -> CliInputs.hex("--tx", " " + eighty + "\n"));
        assertEquals("--tx '" + eighty + "': " + e.getCause().getMessage(), e.getMessage());
        String eightyOne = "0".repeat(80) + "z";
        e = assertThrows(IllegalArgumentException.class, () -> CliInputs.hex("--tx", eightyOne));
        assertEquals("--tx: " + e.getCause().getMessage(), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CliInputs.hex("--topic", eightyOne, 32, "topic"));
        assertEquals("topic: hex string has an odd number of digits (81)", e.getCause().getMessage());
        assertEquals("--topic: hex string has an odd number of digits (81)", e.getMessage(),
                "the option names the value; the library's own naming of it is not repeated");
    }

    /**
     * A value file of exactly {@link CliInputs#MAX_VALUE_FILE_BYTES} is read; one byte more is refused naming the file
     * and the limit. Refusing the file at the limit itself passed every test (from a mutation review).
     */
    @Test
    void aValueFileOfExactlyTheLimitIsRead(@TempDir Path dir) throws IOException {
        byte[] padded = new byte[CliInputs.MAX_VALUE_FILE_BYTES];
        java.util.Arrays.fill(padded, (byte) ' ');
        padded[0] = '0';
        padded[1] = '0';
        padded[padded.length - 1] = '\n';
        Path atLimit = Files.write(dir.resolve("at-limit.hex"), padded);
        assertEquals("00", CliInputs.hexValueFile(atLimit, "--block-file"));
        Path over = Files.write(dir.resolve("over.hex"), java.util.Arrays.copyOf(padded, padded.length + 1));
        var e = assertThrows(IllegalArgumentException.class, () -> CliInputs.hexValueFile(over, "--block-file"));
        assertEquals("--block-file " + over + " holds more than 16777216 bytes, the most this option reads",
                e.getMessage());
    }

    /** The refusal of a value file holding {@code content} (ISO-8859-1: one byte a character), the file named FILE. */
    private static String valueFileRefusal(Path dir, String content) throws IOException {
        Path file = Files.writeString(dir.resolve("value.hex"), content, java.nio.charset.StandardCharsets.ISO_8859_1);
        var e = assertThrows(IllegalArgumentException.class, () -> CliInputs.hexValueFile(file, "--tx-file"));
        return e.getMessage().replace(file.toString(), "FILE");
    }

    /**
     * A refusal shows a byte of 0x80 and up as a byte (not ASCII), a control character by its code point. Showing 0x80
     * as U+0080 passed every test (from a mutation review).
     */
    @Test
    void aRefusalNamesTheFirstNonAsciiByteAsAByte(@TempDir Path dir) throws IOException {
        assertEquals("--tx-file FILE: not a hex digit: byte 0x80 (not ASCII) at line 1, column 3",
                valueFileRefusal(dir, "00\u0080"));
    }

    /**
     * Lines are counted as an editor counts them: CRLF is one line break, and CR alone is one even right after
     * another (an empty line). Counting CRLF as two, or a second CR as none, passed every test (from a mutation
     * review).
     */
    @Test
    void aRefusalCountsLinesAsAnEditorDoes(@TempDir Path dir) throws IOException {
        assertEquals("--tx-file FILE: not a hex digit: 'z' at line 3, column 1", valueFileRefusal(dir, "00\r\n00\r\nzz"));
        assertEquals("--tx-file FILE: not a hex digit: 'z' at line 3, column 1", valueFileRefusal(dir, "00\r\rzz"));
    }

    /**
     * Only a 0 directly before the x opens an 0x prefix: one at the end of a line or before white space does not, and
     * the x is refused where it stands. Both passed as a prefix (the 0 dropped) without failing a test (from a
     * mutation review).
     */
    @Test
    void anXAfterALineBreakOrWhiteSpaceIsNoPrefix(@TempDir Path dir) throws IOException {
        assertEquals("--tx-file FILE: not a hex digit: 'x' at line 2, column 1", valueFileRefusal(dir, "0\nx00"));
        assertEquals("--tx-file FILE: not a hex digit: 'x' at line 1, column 3", valueFileRefusal(dir, "0 x00"));
    }

    /**
     * A file of white space alone holds no hex value, and is not called empty: "(it is empty)" is for a file of no
     * bytes. Saying it of a file of one line break passed every test (from a mutation review).
     */
    @Test
    void aFileOfWhiteSpaceIsNotCalledEmpty(@TempDir Path dir) throws IOException {
        assertEquals("--tx-file FILE holds no hex value", valueFileRefusal(dir, "\n"));
    }

    /**
     * A list line is stripped as String.strip strips it, the file separators U+001C..U+001F included; refusing them
     * as control characters passed every test (from a mutation review).
     */
    @Test
    void aListLineMayEndInAFileSeparator(@TempDir Path dir) throws IOException {
        assertEquals(List.of("00", "ab"), hexLines(dir, "00\u001f\n\u001cab\n"));
    }
}
