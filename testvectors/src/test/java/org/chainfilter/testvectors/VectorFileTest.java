package org.chainfilter.testvectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class VectorFileTest {
    private static String file(String vectors) {
        return "{\"suite\": \"murmur3-x86-32\", \"source\": \"test\", \"vectors\": [" + vectors + "]}";
    }

    private static String refused(String json) {
        return assertThrows(VectorFormatException.class, () -> VectorFile.parse("f.json", json)).getMessage();
    }

    @Test
    void readsTheEnvelopeAndKeepsUnknownFields() {
        VectorFile f = VectorFile.parse("f.json", file("{\"name\": \"a\", \"seed\": 1, \"data\": \"0x00\", \"note\": \"n\"}"));
        assertEquals("murmur3-x86-32", f.suite());
        assertEquals("test", f.source());
        assertEquals(1, f.vectors().size());
        Vector v = f.vectors().get(0);
        assertEquals("a", v.name());
        assertEquals(1, v.number());
        assertEquals("n", v.note());
        assertEquals(1L, v.uint32("seed"));
        assertEquals(1, v.hex("data").length);
        assertFalse(v.has("hash"));
        assertEquals("f.json (murmur3-x86-32, 1 vectors)", f.toString());
    }

    @Test
    void refusesAFileOfAnotherShape() {
        assertEquals("f.json: not a conformance file: missing field 'suite'",
                refused("{\"source\": \"s\", \"vectors\": []}"));
        assertEquals("f.json: not a conformance file: missing field 'source'",
                refused("{\"suite\": \"gcs\", \"vectors\": []}"));
        assertEquals("f.json: not a conformance file: missing field 'vectors'",
                refused("{\"suite\": \"gcs\", \"source\": \"s\"}"));
        assertEquals("f.json: not a conformance file: field 'vectors' must be a list",
                refused("{\"suite\": \"gcs\", \"source\": \"s\", \"vectors\": {}}"));
        assertEquals("f.json: not a conformance file: field 'suite' must be a non-empty string",
                refused("{\"suite\": 7, \"source\": \"s\", \"vectors\": []}"));
        // A blank suite names none, a blank source cites nothing (both were read; from a mutation review).
        assertEquals("f.json: not a conformance file: field 'suite' must be a non-empty string",
                refused("{\"suite\": \" \", \"source\": \"s\", \"vectors\": []}"));
        assertEquals("f.json: not a conformance file: field 'source' must be a non-empty string",
                refused("{\"suite\": \"gcs\", \"source\": \"\\t\", \"vectors\": []}"));
        assertEquals("f.json: not a conformance file: the top level must be an object with 'suite', 'source' and "
                + "'vectors'; it is array", refused("[1, 2]"));
        // An empty file was said to be "missing".
        assertEquals("f.json: not a conformance file: the top level must be an object with 'suite', 'source' and "
                + "'vectors'; it is empty", refused(""));
        assertEquals("f.json: not a conformance file: the top level must be an object with 'suite', 'source' and "
                + "'vectors'; it is empty", refused(" \n\t"));
        assertTrue(refused("{\"suite\": ").startsWith("f.json: not JSON: "), refused("{\"suite\": "));
        // Jackson's own text named the start of an unclosed list as '[Source: REDACTED (`StreamReadFeature...` ...'
        assertEquals("f.json: not JSON: Unexpected end-of-input: expected close marker for Array (start marker at"
                + " line 1, column 1) (line 2, column 1)", refused("[1, 2\n"));
    }

    @Test
    void refusesVectorsWithoutNamesAndDuplicateNames() {
        assertEquals("f.json: vector 2: missing field 'name' (a non-empty string)",
                refused(file("{\"name\": \"a\"}, {\"seed\": 1}")));
        assertEquals("f.json: vector 3: duplicate name 'a' (also vector 1); names must be unique within a file",
                refused(file("{\"name\": \"a\"}, {\"name\": \"b\"}, {\"name\": \"a\"}")));
        assertEquals("f.json: vector 1 must be an object", refused(file("[]")));
        // An empty name and a name that is not a string are refused too (both were read; from a mutation review).
        assertEquals("f.json: vector 2: missing field 'name' (a non-empty string)",
                refused(file("{\"name\": \"a\"}, {\"name\": \"\"}")));
        assertEquals("f.json: vector 1: missing field 'name' (a non-empty string)", refused(file("{\"name\": 1}")));
        assertTrue(refused(file("{\"name\": \"a\", \"name\": \"b\"}")).contains("Duplicate field 'name'"));
    }

    @Test
    void fieldAccessorsNameTheVectorAndTheField() {
        Vector v = VectorFile.parse("f.json", file("{\"name\": \"p\"}, {\"name\": \"q\"}, {\"name\": \"x\", "
                + "\"seed\": -1, \"big\": 4294967296, \"data\": \"0g\", \"odd\": \"abc\", \"flag\": 1, "
                + "\"f\": {\"tweak\": \"1\"}, \"l\": [\"00\", 5], \"half\": 1.5, \"huge\": 1e400}")).vectors().get(2);
        assertEquals("vector 3 ('x'): field 'seed' must be a uint32 number (0 .. 4294967295); it is number -1",
                assertThrows(VectorFormatException.class, () -> v.uint32("seed")).getMessage());
        assertEquals("vector 3 ('x'): field 'big' must be a uint32 number (0 .. 4294967295); it is number 4294967296",
                assertThrows(VectorFormatException.class, () -> v.uint32("big")).getMessage());
        assertEquals("vector 3 ('x'): field 'data' must be a hex string: not a hex digit: 'g' at position 1",
                assertThrows(VectorFormatException.class, () -> v.hex("data")).getMessage());
        assertEquals("vector 3 ('x'): field 'odd' must be a hex string: hex string has an odd number of digits (3)",
                assertThrows(VectorFormatException.class, () -> v.hex("odd")).getMessage());
        assertEquals("vector 3 ('x'): field 'flag' must be true or false; it is number 1",
                assertThrows(VectorFormatException.class, () -> v.bool("flag")).getMessage());
        assertEquals("vector 3 ('x'): field 'missing' is missing",
                assertThrows(VectorFormatException.class, () -> v.hex("missing")).getMessage());
        assertEquals("vector 3 ('x'): field 'f.tweak' must be a uint32 number (0 .. 4294967295); it is string \"1\"",
                assertThrows(VectorFormatException.class, () -> v.object("f").uint32("tweak")).getMessage());
        assertEquals("vector 3 ('x'): field 'l[1]' must be a hex string; it is number 5",
                assertThrows(VectorFormatException.class, () -> v.hexList("l")).getMessage());
        assertEquals("vector 3 ('x'): field 'l' must be a hex string; it is array [\"00\",5]",
                assertThrows(VectorFormatException.class, () -> v.hex("l", 4)).getMessage());
        // A count of 1.5 is not read as 1 (a bip37 filter of 1.5 elements was built as of 1), nor a number too large
        // for a double as infinity; both passed every test (from a mutation review).
        assertEquals("vector 3 ('x'): field 'half' must be a non-negative integer up to 2147483647; it is number 1.5",
                assertThrows(VectorFormatException.class, () -> v.count("half")).getMessage());
        assertTrue(assertThrows(VectorFormatException.class, () -> v.number("huge")).getMessage()
                .startsWith("vector 3 ('x'): field 'huge' must be a number; it is number "));
        assertEquals(1.5, v.number("half"));
    }

    @Test
    void hexOfAFixedLengthIsChecked() {
        Vector v = VectorFile.parse("f.json", file("{\"name\": \"x\", \"key\": \"0011\"}")).vectors().get(0);
        assertEquals("vector 1 ('x'): field 'key' must be 16 bytes of hex; it is 2 bytes",
                assertThrows(VectorFormatException.class, () -> v.hex("key", 16)).getMessage());
        // Longer is refused as well as shorter (refusing only a shorter value passed every test; from a mutation
        // review).
        assertEquals("vector 1 ('x'): field 'key' must be 1 bytes of hex; it is 2 bytes",
                assertThrows(VectorFormatException.class, () -> v.hex("key", 1)).getMessage());
        assertEquals(2, v.hex("key", 2).length);
    }

    @Test
    void nullableHexListsKeepNullPositions() {
        Vector v = VectorFile.parse("f.json", file("{\"name\": \"x\", \"topics\": [null, [\"0xab\"], []]}"))
                .vectors().get(0);
        List<List<byte[]>> topics = v.nullableHexLists("topics");
        assertEquals(3, topics.size());
        assertEquals(null, topics.get(0));
        assertEquals(1, topics.get(1).size());
        assertEquals(0, topics.get(2).size());
    }

    @Test
    void aStreamLargerThanTheLimitIsRefusedWithoutReadingIt() {
        byte[] big = new byte[VectorFile.MAX_FILE_BYTES + 1];
        assertEquals("big.json: file is larger than 67108864 bytes",
                assertThrows(VectorFormatException.class,
                        () -> VectorFile.read("big.json", new ByteArrayInputStream(big))).getMessage());
        // A file of exactly the limit is read (refusing it passed every test; from a mutation review).
        byte[] atTheLimit = new byte[VectorFile.MAX_FILE_BYTES];
        java.util.Arrays.fill(atTheLimit, (byte) ' ');
        byte[] json = "{\"suite\": \"x\", \"source\": \"y\", \"vectors\": [{\"name\": \"a\"}]}"
                .getBytes(StandardCharsets.UTF_8);
        System.arraycopy(json, 0, atTheLimit, 0, json.length);
        assertEquals(1, VectorFile.read("limit.json", new ByteArrayInputStream(atTheLimit)).vectors().size());
        assertEquals(0, VectorFile.read("s.json", new ByteArrayInputStream(
                "{\"suite\": \"x\", \"source\": \"y\", \"vectors\": []}".getBytes(StandardCharsets.UTF_8)))
                .vectors().size());
    }

    /** Bytes that are not UTF-8 are refused with their offset: they were read as U+FFFD, changing a name in silence. */
    @Test
    void bytesThatAreNotUtf8AreRefused() {
        byte[] head = "{\"suite\": \"x\", \"source\": \"y\", \"vectors\": [{\"name\": \""
                .getBytes(StandardCharsets.UTF_8);
        byte[] bytes = java.util.Arrays.copyOf(head, head.length + 5);
        bytes[head.length] = (byte) 0xff;
        System.arraycopy("\"}]}".getBytes(StandardCharsets.UTF_8), 0, bytes, head.length + 1, 4);
        assertEquals("bad.json: not UTF-8: byte 0xff at offset 52 does not begin a valid UTF-8 sequence",
                assertThrows(VectorFormatException.class,
                        () -> VectorFile.read("bad.json", new ByteArrayInputStream(bytes))).getMessage());
        // A lone continuation byte, and a lead byte whose sequence the file cuts short.
        bytes[head.length] = (byte) 0x80;
        assertEquals("bad.json: not UTF-8: byte 0x80 at offset 52 does not begin a valid UTF-8 sequence",
                assertThrows(VectorFormatException.class,
                        () -> VectorFile.read("bad.json", new ByteArrayInputStream(bytes))).getMessage());
        bytes[head.length] = (byte) 0xc3;
        assertEquals("bad.json: not UTF-8: byte 0xc3 at offset 52 does not begin a valid UTF-8 sequence",
                assertThrows(VectorFormatException.class,
                        () -> VectorFile.read("bad.json", new ByteArrayInputStream(bytes))).getMessage());
        bytes[head.length] = (byte) 'a';
        assertEquals("a", VectorFile.read("good.json", new ByteArrayInputStream(bytes)).vectors().get(0).name());
    }

    /** A file whose reported size is no bound (here an endless device) is read only up to the limit; it ran out of heap. */
    @Test
    void anEndlessFileIsReadOnlyUpToTheLimit() {
        java.nio.file.Path zeros = java.nio.file.Path.of("/dev/zero");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(zeros), "needs /dev/zero");
        assertEquals("/dev/zero: file is larger than 67108864 bytes",
                assertThrows(VectorFormatException.class, () -> VectorFile.read(zeros)).getMessage());
    }

    /**
     * Text after the file's object is refused: a second object's vectors (or anything else) were ignored, so a file
     * passed whatever they said.
     */
    @Test
    void textAfterTheTopLevelObjectIsRefused() {
        String file = "{\"suite\": \"x\", \"source\": \"y\", \"vectors\": []}";
        for (String trailing : new String[] {" {\"vectors\": [{\"name\": \"hidden\"}]}", " garbage", "]"}) {
            VectorFormatException e = assertThrows(VectorFormatException.class,
                    () -> VectorFile.parse("t.json", file + trailing));
            assertTrue(e.getMessage().startsWith("t.json: not JSON: "), e.getMessage());
        }
        assertEquals(0, VectorFile.parse("t.json", file + " \n\t ").vectors().size());
    }

    @Test
    void aDirectoryIsRefusedByName(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        assertEquals(dir + ": is a directory, not a vector file",
                assertThrows(VectorFormatException.class, () -> VectorFile.read(dir)).getMessage());
    }

    @Test
    void anUnknownBundledFileIsRefused() {
        assertEquals("no bundled vector file named 'nope.json'",
                assertThrows(IllegalArgumentException.class, () -> Suites.bundled("nope.json")).getMessage());
    }

    /**
     * A field the schema does not give the suite is kept (it may be a note) but warned about: a misspelt optional
     * field would otherwise turn its check off without a word. Nested filters, matches and logs are looked at too.
     */
    @Test
    void fieldsTheSchemaDoesNotGiveTheSuiteAreWarnedAbout() {
        VectorFile murmur = VectorFile.parse("f.json", file("{\"name\": \"a\", \"seed\": 1, \"data\": \"\","
                + " \"hsah\": \"00000000\", \"note\": \"n\"}"));
        assertEquals(List.of("f.json vector 1 ('a'): field 'hsah' is not a field of murmur3-x86-32 in the schema, so"
                + " nothing checks it (the schema's: seed, data, hash)"), murmur.warnings());
        VectorFile merkle = VectorFile.parse("m.json", "{\"suite\": \"bip37-merkleblock\", \"source\": \"s\","
                + " \"vectors\": [{\"name\": \"b\", \"filter\": {\"elements\": 1, \"tweek\": 5},"
                + " \"matched\": [{\"index\": 0, \"txid\": \"00\"}, {\"idx\": 1}], \"containsafter\": []}]}");
        assertEquals(List.of(
                "m.json vector 1 ('b'): field 'containsafter' is not a field of bip37-merkleblock in the schema, so"
                        + " nothing checks it (the schema's: filter, filterload, block, merkleblock, matched,"
                        + " filterloadAfter, containsAfter, absentAfter)",
                "m.json vector 1 ('b'): field 'tweek' is not a field of bip37-merkleblock filter in the schema, so"
                        + " nothing checks it (the schema's: elements, fpRate, tweak, flags, insert)",
                "m.json vector 1 ('b'): matched[1]: field 'idx' is not a field of bip37-merkleblock matched[] in the"
                        + " schema, so nothing checks it (the schema's: index, txid)"), merkle.warnings());
        VectorFile bloom = VectorFile.parse("b.json", "{\"suite\": \"eth-bloom\", \"source\": \"s\", \"vectors\": [{"
                + "\"name\": \"c\", \"bloom\": \"00\", \"logs\": [{\"address\": \"00\", \"topics\": [],"
                + " \"data\": \"0x\", \"note\": \"n\"}]}]}");
        // A vector's note is its own field; inside a log it is one the schema does not give (passed unwarned when
        // every level took a note; from a mutation review).
        assertEquals(List.of("b.json vector 1 ('c'): logs[0]: field 'data' is not a field of eth-bloom logs[] in the"
                + " schema, so nothing checks it (the schema's: address, topics)",
                "b.json vector 1 ('c'): logs[0]: field 'note' is not a field of eth-bloom logs[] in the"
                + " schema, so nothing checks it (the schema's: address, topics)"), bloom.warnings());
        // A suite the schema does not know: its fields are not ours to judge.
        assertEquals(List.of(), VectorFile.parse("u.json", "{\"suite\": \"no-such-suite\", \"source\": \"s\","
                + " \"vectors\": [{\"name\": \"c\", \"anything\": 1}]}").warnings());
    }

    @Test
    void noBundledVectorHasAFieldTheSchemaDoesNotGive() {
        for (VectorFile bundled : Suites.bundled()) {
            assertEquals(List.of(), bundled.warnings(), bundled.origin());
        }
    }

    /**
     * An integer too large for the type is refused, not wrapped: a count of 2^32 + 1 was read as 1 and a uint32 of
     * 2^64 + 1 as 1 (Jackson's asInt / asLong cut the value) when the range checks were left to the sign alone; both
     * passed every test (from a mutation review).
     */
    @Test
    void integersTooLargeForTheirTypeAreRefusedNotWrapped() {
        Vector v = VectorFile.parse("f.json", file("{\"name\": \"x\", \"elements\": 4294967297,"
                + " \"tweak\": 18446744073709551617}")).vectors().get(0);
        assertEquals("vector 1 ('x'): field 'elements' must be a non-negative integer up to 2147483647; it is number"
                + " 4294967297", assertThrows(VectorFormatException.class, () -> v.count("elements")).getMessage());
        assertEquals("vector 1 ('x'): field 'tweak' must be a uint32 number (0 .. 4294967295); it is number"
                + " 18446744073709551617", assertThrows(VectorFormatException.class, () -> v.uint32("tweak")).getMessage());
    }

    /**
     * A number written as a string is not a number, nor a number a string: {@code "fpRate": "0.01"} was read as 0.01
     * when number() took text, and text() taking any scalar passed every test (from a mutation review).
     */
    @Test
    void numbersAndStringsAreNotReadAsEachOther() {
        Vector v = VectorFile.parse("f.json", file("{\"name\": \"x\", \"fpRate\": \"0.01\", \"txid\": 5}"))
                .vectors().get(0);
        assertEquals("vector 1 ('x'): field 'fpRate' must be a number; it is string \"0.01\"",
                assertThrows(VectorFormatException.class, () -> v.number("fpRate")).getMessage());
        assertEquals("vector 1 ('x'): field 'txid' must be a string; it is number 5",
                assertThrows(VectorFormatException.class, () -> v.text("txid")).getMessage());
    }

    /**
     * A required field given as JSON null is missing, as the schema's absent field is, and is called that: it was
     * called "must be a hex string; it is null null" when only a field not written at all counted as missing (from a
     * mutation review).
     */
    @Test
    void aRequiredFieldGivenAsNullIsMissing() {
        Vector v = VectorFile.parse("f.json", file("{\"name\": \"x\", \"hash\": null}")).vectors().get(0);
        assertEquals("vector 1 ('x'): field 'hash' is missing",
                assertThrows(VectorFormatException.class, () -> v.hex("hash")).getMessage());
    }

    /**
     * Errors inside nested lists name the item: {@code matched[1]} rather than {@code matched}, {@code topics[1][0]}
     * rather than {@code topics[1]} (naming the list passed every test; from a mutation review). A topic position given
     * as a string is refused, never read as the null wildcard (which let an eth-log-filter vector pass on any bloom).
     */
    @Test
    void errorsInNestedListsNameTheItem() {
        Vector v = VectorFile.parse("f.json", file("{\"name\": \"x\", \"matched\": [{\"index\": 0}, 7],"
                + " \"topics\": [null, [\"zz\"]], \"stringTopic\": [\"0xab\"]}")).vectors().get(0);
        assertEquals("vector 1 ('x'): field 'matched[1]' must be an object; it is number 7",
                assertThrows(VectorFormatException.class, () -> v.objects("matched")).getMessage());
        assertEquals("vector 1 ('x'): field 'topics[1][0]' must be a hex string: not a hex digit: 'z' at position 0",
                assertThrows(VectorFormatException.class, () -> v.nullableHexLists("topics")).getMessage());
        assertEquals("vector 1 ('x'): field 'stringTopic[0]' must be null or a list of hex strings; it is string"
                + " \"0xab\"", assertThrows(VectorFormatException.class, () -> v.nullableHexLists("stringTopic"))
                .getMessage());
    }

    /** Neither of two alternative fields: the message names both (it named only the second; from a mutation review). */
    @Test
    void neitherAlternativeIsRefusedNamingBoth() {
        Vector v = VectorFile.parse("f.json", file("{\"name\": \"x\"}")).vectors().get(0);
        assertEquals("vector 1 ('x'): field 'filter' is missing (give 'filter' or 'filterload')",
                assertThrows(VectorFormatException.class, () -> v.oneOf("filter", "filterload")).getMessage());
    }

    /**
     * A file on disk larger than the limit is refused by its size, before it is read, naming the file and its size;
     * one byte over is enough (allowing one byte more, or not looking at the size at all, passed every test: the
     * bounded stream read then refused it, after reading it; from a mutation review).
     */
    @Test
    void aFileLargerThanTheLimitIsRefusedByItsSize(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path big = dir.resolve("big.json");
        try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            file.setLength(VectorFile.MAX_FILE_BYTES + 1L);
        }
        assertEquals(big + ": file is 67108865 bytes; a vector file may be at most 67108864 bytes",
                assertThrows(VectorFormatException.class, () -> VectorFile.read(big)).getMessage());
    }

    /**
     * Every field the schema gives a suite is known to the warnings, the optional ones no bundled vector carries
     * included (a bip37-tx-match filterloadAfter), and a bip37-merkleblock-verify match is looked into as a
     * bip37-merkleblock one is. Leaving filterloadAfter out of the tx-match fields (a false warning) and the verify
     * suite's matched[] out altogether (a misspelt index unwarned) each passed every test (from a mutation review).
     */
    @Test
    void theWarningsKnowEveryFieldOfTheSchema() {
        VectorFile txMatch = VectorFile.parse("t.json", "{\"suite\": \"bip37-tx-match\", \"source\": \"s\","
                + " \"vectors\": [{\"name\": \"a\", \"filter\": {\"elements\": 1, \"fpRate\": 0.01, \"tweak\": 0,"
                + " \"flags\": 0, \"insert\": []}, \"tx\": \"00\", \"match\": false, \"filterloadAfter\": \"00\","
                + " \"containsAfter\": [], \"absentAfter\": []}]}");
        assertEquals(List.of(), txMatch.warnings());
        VectorFile verify = VectorFile.parse("v.json", "{\"suite\": \"bip37-merkleblock-verify\", \"source\":"
                + " \"s\", \"vectors\": [{\"name\": \"b\", \"merkleblock\": \"00\", \"valid\": true, \"root\":"
                + " \"00\", \"matched\": [{\"index\": 0, \"txid\": \"00\"}, {\"idx\": 1, \"txid\": \"00\"}]}]}");
        assertEquals(List.of("v.json vector 1 ('b'): matched[1]: field 'idx' is not a field of bip37-merkleblock-verify"
                + " matched[] in the schema, so nothing checks it (the schema's: index, txid)"), verify.warnings());
    }

    /**
     * An object nested in a vector of a suite whose schema gives it no such object is warned about once, by its own
     * name, not judged against the vector's fields (a lookup falling back to the suite's top-level fields warned of
     * 'tweek' a second time and passed every test; from a mutation review).
     */
    @Test
    void aNestedObjectTheSuiteDoesNotHaveIsWarnedAboutOnce() {
        VectorFile filter = VectorFile.parse("f.json", "{\"suite\": \"bip37-filter\", \"source\": \"s\","
                + " \"vectors\": [{\"name\": \"a\", \"filter\": {\"tweek\": 1}}]}");
        assertEquals(List.of("f.json vector 1 ('a'): field 'filter' is not a field of bip37-filter in the schema, so"
                + " nothing checks it (the schema's: elements, fpRate, tweak, flags, insert, contains, absent,"
                + " filterload)"), filter.warnings());
    }

    /**
     * A long wrong value is shown cut to its first 40 characters, so that a message stays one line (showing it whole
     * passed every test; from a mutation review).
     */
    @Test
    void aLongWrongValueIsShownCut() {
        Vector v = VectorFile.parse("f.json", file("{\"name\": \"x\", \"seed\": \"" + "7".repeat(100) + "\"}"))
                .vectors().get(0);
        assertEquals("vector 1 ('x'): field 'seed' must be a uint32 number (0 .. 4294967295); it is string \""
                + "7".repeat(39) + "…", assertThrows(VectorFormatException.class, () -> v.uint32("seed")).getMessage());
    }
}
