package org.chainfilter.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ParserContractTest {
    private final ParserContract<byte[]> contract = ParserContract.refusing("demo parser", IllegalArgumentException.class);

    @Test
    void aValueIsReturned() {
        Optional<byte[]> value = contract.parse(3, () -> new byte[] {1, 2, 3});
        assertArrayEquals(new byte[] {1, 2, 3}, value.orElseThrow());
    }

    @Test
    void aDeclaredRefusalWithAMessageIsEmpty() {
        Optional<byte[]> value = contract.parse(3, () -> {
            throw new IllegalArgumentException("length 7 exceeds the 3 bytes left");
        });
        assertTrue(value.isEmpty());
    }

    @Test
    void aSubclassOfTheDeclaredTypeIsDeclared() {
        Optional<byte[]> value = contract.parse(3, () -> {
            throw new NumberFormatException("not a number: 'x'");
        });
        assertTrue(value.isEmpty());
    }

    @Test
    void anUndeclaredExceptionEscapesUnchanged() {
        ArrayIndexOutOfBoundsException thrown = new ArrayIndexOutOfBoundsException("Index 9 out of bounds for length 3");
        ArrayIndexOutOfBoundsException escaped = assertThrows(ArrayIndexOutOfBoundsException.class,
                () -> contract.parse(3, () -> {
                    throw thrown;
                }));
        assertSame(thrown, escaped);
    }

    @Test
    void aCheckedExceptionIsUndeclaredUnlessNamed() {
        assertThrows(IOException.class, () -> contract.parse(3, () -> {
            throw new IOException("disk gone");
        }));
        ParserContract<byte[]> fileReader =
                ParserContract.refusing("file reader", IllegalArgumentException.class, IOException.class);
        assertTrue(fileReader.parse(3, () -> {
            throw new IOException("file is 3 bytes; a header needs 16");
        }).isEmpty());
    }

    @Test
    void anErrorEscapesUnchanged() {
        assertThrows(StackOverflowError.class, () -> contract.parse(3, () -> {
            throw new StackOverflowError();
        }));
    }

    @Test
    void aRefusalWithoutAMessageIsAFinding() {
        AssertionError error = assertThrows(AssertionError.class, () -> contract.parse(3, () -> {
            throw new IllegalArgumentException();
        }));
        assertTrue(error.getMessage().startsWith("demo parser refused an input without saying why"),
                error.getMessage());
        AssertionError blank = assertThrows(AssertionError.class, () -> contract.parse(3, () -> {
            throw new IllegalArgumentException("  ");
        }));
        assertTrue(blank.getMessage().startsWith("demo parser refused an input without saying why"));
    }

    @Test
    void aBareEndOfStreamIsItsOwnReason() {
        ParserContract<byte[]> streamReader =
                ParserContract.refusing("stream reader", IllegalArgumentException.class, IOException.class);
        assertTrue(streamReader.parse(3, () -> {
            throw new java.io.EOFException();
        }).isEmpty());
    }

    @Test
    void aRefusalWithAFloodingMessageIsAFinding() {
        String flood = "x".repeat(ParserContract.MAX_MESSAGE_CHARS + 1);
        AssertionError error = assertThrows(AssertionError.class, () -> contract.parse(3, () -> {
            throw new IllegalArgumentException(flood);
        }));
        assertEquals("demo parser refused an input with a 1001-character message; at most 1000 are acceptable",
                error.getMessage());
    }

    @Test
    void returningNullIsAFinding() {
        AssertionError error = assertThrows(AssertionError.class, () -> contract.parse(3, () -> null));
        assertEquals("demo parser returned null instead of a value or a refusal", error.getMessage());
    }

    @Test
    void allocatingFromAnUncheckedLengthIsAFinding() {
        // A 4-byte input that claims 32 MiB, as a CompactSize of 0x02000000 would, sized before it is checked.
        AssertionError error = assertThrows(AssertionError.class, () -> contract.parse(4, () -> new byte[32 << 20]));
        assertTrue(error.getMessage().startsWith("demo parser allocated "), error.getMessage());
        assertTrue(error.getMessage().endsWith("bytes for a 4-byte input; the bound is 4195328"
                + " (a length field used before it was checked?)"), error.getMessage());
    }

    @Test
    void allocationIsCheckedOnRefusalsToo() {
        AssertionError error = assertThrows(AssertionError.class, () -> contract.parse(4, () -> {
            byte[] sized = new byte[32 << 20];
            throw new IllegalArgumentException("only " + sized.length + " bytes were checked too late");
        }));
        assertTrue(error.getMessage().startsWith("demo parser allocated "), error.getMessage());
    }

    @Test
    void aOneOffWarmUpAllocationIsNotAFinding() {
        boolean[] warm = {false};
        Optional<byte[]> value = contract.parse(4, () -> {
            if (!warm[0]) {
                warm[0] = true;
                return new byte[32 << 20];
            }
            return new byte[4];
        });
        assertEquals(4, value.orElseThrow().length);
    }

    @Test
    void allocationProportionalToTheInputIsAllowed() {
        int length = 1 << 20;
        Optional<byte[]> value = contract.parse(length, () -> new byte[length * 8]);
        assertEquals(length * 8, value.orElseThrow().length);
    }

    @Test
    void canonicalCheckNamesTheFirstDifference() {
        ParserContract.assertCanonical("tx", new byte[] {1, 2, 3}, new byte[] {1, 2, 3});
        AssertionError error = assertThrows(AssertionError.class,
                () -> ParserContract.assertCanonical("tx", new byte[] {1, 2, 3}, new byte[] {1, 2, 4, 5}));
        assertEquals("tx: parse then serialize changed the bytes (3 in, 4 out, first difference at byte 2)",
                error.getMessage());
    }

    @Test
    void roundTripComparesValuesAndBytes() {
        ParserContract.assertRoundTrip("text", "abc", String::getBytes, String::new);
        AssertionError lossy = assertThrows(AssertionError.class, () -> ParserContract.assertRoundTrip(
                "truncating", "abcd", String::getBytes, bytes -> new String(Arrays.copyOf(bytes, 3))));
        assertEquals("truncating: the value read back from its serialization differs: abcd then abc",
                lossy.getMessage());
    }
}
