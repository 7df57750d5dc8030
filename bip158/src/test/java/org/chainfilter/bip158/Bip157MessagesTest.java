package org.chainfilter.bip158;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import org.chainfilter.btcwire.Hash256;
import org.chainfilter.btcwire.Sha256d;
import org.chainfilter.common.Hex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class Bip157MessagesTest {
    private static final Hash256 STOP = Hash256.fromDisplayHex(
            "000000006c02c8ea6e4ff69651f7fcde348fb9d557a06e6957b65552002a7820");

    /**
     * Core's values (src/protocol.h, src/net_processing.cpp): the service bit, the request limits, the checkpoint
     * interval and the message limit. NODE_COMPACT_FILTERS was checked by no test, and bit 7 passed every test (found
     * by a mutation review).
     */
    @Test
    void protocolConstantsAreCores() {
        assertEquals(64, Bip157.NODE_COMPACT_FILTERS);
        assertEquals(1000, Bip157.MAX_GETCFILTERS_SIZE);
        assertEquals(2000, Bip157.MAX_GETCFHEADERS_SIZE);
        assertEquals(1000, Bip157.CFCHECKPT_INTERVAL);
        assertEquals(4_000_000, Bip157.MAX_PROTOCOL_MESSAGE_LENGTH);
    }

    @Test
    void rangeRequestsSerializeAsTypeStartHeightStopHash() {
        FilterRangeRequest request = FilterRangeRequest.getCFilters(1000, STOP);
        assertEquals("00" + "e8030000" + STOP.toInternalHex(), Hex.encode(request.serialize()));
        assertEquals(request, FilterRangeRequest.parse(FilterRangeRequest.Command.GETCFILTERS, request.serialize()));
        FilterRangeRequest headers = FilterRangeRequest.getCFHeaders(0xffffffffL, STOP);
        assertEquals(headers, FilterRangeRequest.parse(FilterRangeRequest.Command.GETCFHEADERS, headers.serialize()));
        assertEquals("getcfheaders[type=basic, startHeight=4294967295, stopHash=" + STOP + "]", headers.toString());
        assertEquals("getcfilters", request.command().wireName());
    }

    @Test
    void rangeLimitsAreCoresThousandAndTwoThousand() {
        assertEquals(1000, FilterRangeRequest.getCFilters(0, STOP).checkRange(999));
        assertMessage("getcfilters asks for 1001 blocks (heights 0 to 1000); BIP157 allows at most 1000",
                () -> FilterRangeRequest.getCFilters(0, STOP).checkRange(1000));
        assertEquals(2000, FilterRangeRequest.getCFHeaders(1, STOP).checkRange(2000));
        assertMessage("getcfheaders asks for 2001 blocks (heights 1 to 2001); BIP157 allows at most 2000",
                () -> FilterRangeRequest.getCFHeaders(1, STOP).checkRange(2001));
        assertMessage("getcfilters start height 10 is above the stop height 9",
                () -> FilterRangeRequest.getCFilters(10, STOP).checkRange(9));
        assertEquals(1, FilterRangeRequest.getCFilters(10, STOP).checkRange(10));
        // A stop height near Long.MAX_VALUE: the count overflowed, passed the limit and came back as 0 (found by a
        // review).
        assertMessage("getcfilters asks for 2^63 blocks (heights 0 to 9223372036854775807); BIP157 allows at most"
                + " 1000", () -> FilterRangeRequest.getCFilters(0, STOP).checkRange(Long.MAX_VALUE));
        assertMessage("getcfheaders asks for 9223372036854775807 blocks (heights 1 to 9223372036854775807); BIP157"
                + " allows at most 2000", () -> FilterRangeRequest.getCFHeaders(1, STOP).checkRange(Long.MAX_VALUE));
    }

    @Test
    void malformedRequestsAreRefused() {
        byte[] good = FilterRangeRequest.getCFilters(5, STOP).serialize();
        byte[] otherType = good.clone();
        otherType[0] = 1;
        assertMessage("getcfilters filter type is 0x01; BIP158 defines only basic (0x00)",
                () -> FilterRangeRequest.parse(FilterRangeRequest.Command.GETCFILTERS, otherType));
        assertMessage("reading getcfheaders stop hash: wanted 32 bytes but 31 are left (at offset 5)",
                () -> FilterRangeRequest.parse(FilterRangeRequest.Command.GETCFHEADERS,
                        java.util.Arrays.copyOf(good, good.length - 1)));
        assertMessage("getcfilters has 1 trailing bytes after its end (at offset 37)",
                () -> FilterRangeRequest.parse(FilterRangeRequest.Command.GETCFILTERS,
                        java.util.Arrays.copyOf(good, good.length + 1)));
        assertMessage("getcfilters start height -1 is outside the uint32 range",
                () -> FilterRangeRequest.getCFilters(-1, STOP));
        assertMessage("getcfcheckpt filter type is 0xff; BIP158 defines only basic (0x00)",
                () -> GetCFCheckpt.parse(Hex.decode("ff" + STOP.toInternalHex())));
    }

    /** A byte after the last field is refused, as the existing cases already require for getcfilters and cfilter. */
    @Test
    void checkpointAndHeaderMessagesRefuseTrailingBytes() {
        assertMessage("getcfcheckpt has 1 trailing bytes after its end (at offset 33)",
                () -> GetCFCheckpt.parse(Hex.decode("00" + STOP.toInternalHex() + "00")));
        assertMessage("cfcheckpt has 1 trailing bytes after its end (at offset 34)",
                () -> CFCheckpt.parse(Hex.decode("00" + STOP.toInternalHex() + "00" + "00")));
        assertMessage("cfheaders has 1 trailing bytes after its end (at offset 66)",
                () -> CFHeaders.parse(Hex.decode("00" + STOP.toInternalHex() + "00".repeat(32) + "00" + "00")));
    }

    @Test
    void getCFCheckptRoundTrips() {
        GetCFCheckpt request = new GetCFCheckpt(STOP);
        assertEquals("00" + STOP.toInternalHex(), Hex.encode(request.serialize()));
        assertEquals(request, GetCFCheckpt.parse(request.serialize()));
        assertEquals(request.hashCode(), GetCFCheckpt.parse(request.serialize()).hashCode());
    }

    @Test
    void cfilterCarriesThePublishedFilterAndItsHash() throws IOException {
        JsonNode row = BasicFilterTest.publishedVectors().get("vectors").get(5);
        Hash256 blockHash = Hash256.fromDisplayHex(row.get("blockHash").asText());
        byte[] filterBytes = Hex.decode(row.get("filter").asText());
        CFilter message = new CFilter(blockHash, filterBytes);
        byte[] payload = message.serialize();
        assertEquals("00" + blockHash.toInternalHex() + String.format("%02x", filterBytes.length)
                + row.get("filter").asText(), Hex.encode(payload));
        CFilter parsed = CFilter.parse(payload);
        assertEquals(message, parsed);
        Hash256 previous = Hash256.fromDisplayHex(row.get("prevHeader").asText());
        assertEquals(row.get("header").asText(), FilterHeaders.header(parsed.filterHash(), previous).toDisplayHex());
        assertEquals(parsed, CFilter.of(parsed.basicFilter()));
    }

    @Test
    void malformedCFiltersAreRefusedBeforeAllocation() {
        String head = "00" + STOP.toInternalHex();
        assertMessage("cfilter filter length is 5 but at 1 bytes or more each they cannot fit in the 2 bytes left",
                () -> CFilter.parse(Hex.decode(head + "05" + "0000")));
        assertMessage("cfilter filter length is 4294967295; at most 3999962 is allowed",
                () -> CFilter.parse(Hex.decode(head + "feffffffff")));
        assertMessage("cfilter has 1 trailing bytes after its end (at offset 35)",
                () -> CFilter.parse(Hex.decode(head + "01" + "00" + "00")));
        assertMessage("cfilter filter is 3999963 bytes; at most 3999962 fit a P2P message",
                () -> new CFilter(STOP, new byte[CFilter.MAX_FILTER_BYTES + 1]));
        CFilter hostile = CFilter.parse(Hex.decode(head + "03" + "0affff"));
        assertMessage("GCS filter claims N = 10 elements but its 2-byte bit stream holds at most 0 (each element takes"
                + " at least P + 1 = 20 bits)", hostile::basicFilter);
    }

    /**
     * The largest filter fills a 4,000,000-byte message exactly (type, hash, a 5-byte CompactSize and 3,999,962 filter
     * bytes), and is read back. Refusing a filter of exactly MAX_FILTER_BYTES passed every test (found by a mutation
     * review).
     */
    @Test
    void theLargestCFilterFillsAProtocolMessage() {
        byte[] filterBytes = new byte[CFilter.MAX_FILTER_BYTES];
        filterBytes[filterBytes.length - 1] = 7;
        byte[] payload = new CFilter(STOP, filterBytes).serialize();
        assertEquals(Bip157.MAX_PROTOCOL_MESSAGE_LENGTH, payload.length);
        assertArrayEquals(filterBytes, CFilter.parse(payload).filterBytes());
    }

    /** As its javadoc says, a cfilter copies the bytes it is given: keeping the caller's array passed every test. */
    @Test
    void aCFilterKeepsItsOwnCopyOfTheFilterBytes() {
        byte[] filterBytes = Hex.decode("019dfca8");
        CFilter message = new CFilter(STOP, filterBytes);
        Hash256 filterHash = message.filterHash();
        filterBytes[1] = 0;
        message.filterBytes()[2] = 0;
        assertEquals("019dfca8", Hex.encode(message.filterBytes()));
        assertEquals(filterHash, message.filterHash());
    }

    /**
     * The messages are immutable: cfheaders and cfcheckpt copy the hash lists they are given. Keeping the caller's
     * list passed every test, and a caller reusing it changed a message already built (found by a mutation review).
     */
    @Test
    void hashListMessagesKeepTheirOwnCopyOfTheList() {
        List<Hash256> hashes = new ArrayList<>(List.of(STOP, Hash256.ZERO));
        CFHeaders headers = new CFHeaders(STOP, Hash256.ZERO, hashes);
        CFCheckpt checkpoints = new CFCheckpt(STOP, hashes);
        byte[] headersPayload = headers.serialize();
        byte[] checkpointsPayload = checkpoints.serialize();
        hashes.set(0, Hash256.ZERO);
        hashes.add(STOP);
        assertEquals(List.of(STOP, Hash256.ZERO), headers.filterHashes());
        assertEquals(List.of(STOP, Hash256.ZERO), checkpoints.filterHeaders());
        assertArrayEquals(headersPayload, headers.serialize());
        assertArrayEquals(checkpointsPayload, checkpoints.serialize());
    }

    /** Rows 2 and 3 of the published vectors are consecutive heights: a cfheaders over them rebuilds both headers. */
    @Test
    void cfheadersRebuildsThePublishedHeaderChain() throws IOException {
        JsonNode rows = BasicFilterTest.publishedVectors().get("vectors");
        JsonNode two = rows.get(1);
        JsonNode three = rows.get(2);
        assertEquals(2, two.get("height").asInt());
        assertEquals(3, three.get("height").asInt());
        CFHeaders message = new CFHeaders(Hash256.fromDisplayHex(three.get("blockHash").asText()),
                Hash256.fromDisplayHex(two.get("prevHeader").asText()),
                List.of(FilterHeaders.filterHash(Hex.decode(two.get("filter").asText())),
                        FilterHeaders.filterHash(Hex.decode(three.get("filter").asText()))));
        CFHeaders parsed = CFHeaders.parse(message.serialize());
        assertEquals(message, parsed);
        assertEquals(List.of(two.get("header").asText(), three.get("header").asText()),
                parsed.headers().stream().map(Hash256::toDisplayHex).toList());
    }

    @Test
    void cfheadersAndCfcheckptCountsAreBounded() {
        String head = "00" + STOP.toInternalHex() + STOP.toInternalHex();
        assertMessage("cfheaders filter hash count is 2001; at most 2000 is allowed",
                () -> CFHeaders.parse(Hex.decode(head + "fdd107")));
        assertMessage("cfheaders filter hash count is 2 but at 32 bytes or more each they cannot fit in the 32 bytes"
                + " left", () -> CFHeaders.parse(Hex.decode(head + "02" + "00".repeat(32))));
        assertMessage("cfheaders filter hash list holds 2001 hashes; at most 2000 are allowed",
                () -> new CFHeaders(STOP, STOP, Collections.nCopies(2001, STOP)));
        assertEquals(2000, CFHeaders.parse(new CFHeaders(STOP, STOP, Collections.nCopies(2000, STOP)).serialize())
                .filterHashes().size());
        assertMessage("cfcheckpt filter header count is 4294967295; at most 124998 is allowed",
                () -> CFCheckpt.parse(Hex.decode("00" + STOP.toInternalHex() + "feffffffff")));
        assertMessage("cfcheckpt filter header count is 1 but at 32 bytes or more each they cannot fit in the 0 bytes"
                + " left", () -> CFCheckpt.parse(Hex.decode("00" + STOP.toInternalHex() + "01")));
        CFCheckpt checkpoints = new CFCheckpt(STOP, List.of(STOP, Hash256.ZERO));
        assertEquals(checkpoints, CFCheckpt.parse(checkpoints.serialize()));
        assertEquals("cfcheckpt[type=basic, stopHash=" + STOP + ", 2 checkpoints]", checkpoints.toString());
    }

    /**
     * The header limit is what fits a 4,000,000-byte message with the 38 bytes of fixed fields: 124,998 headers make a
     * 3,999,974-byte payload; 125,000 (4,000,000 / 32, the limit before) made 4,000,038 bytes and were accepted.
     */
    @Test
    void cfcheckptHoldsOnlyTheHeadersThatFitAProtocolMessage() {
        CFCheckpt largest = new CFCheckpt(STOP, Collections.nCopies(CFCheckpt.MAX_HEADERS, STOP));
        byte[] payload = largest.serialize();
        assertEquals(3_999_974, payload.length);
        assertTrue(payload.length <= Bip157.MAX_PROTOCOL_MESSAGE_LENGTH);
        assertEquals(largest, CFCheckpt.parse(payload));
        byte[] oneMore = new byte[payload.length + Hash256.LENGTH];
        System.arraycopy(payload, 0, oneMore, 0, payload.length);
        oneMore[1 + Hash256.LENGTH + 1] += 1; // the CompactSize count fe 46e80100 -> fe 47e80100
        assertTrue(oneMore.length > Bip157.MAX_PROTOCOL_MESSAGE_LENGTH);
        assertMessage("cfcheckpt filter header count is 124999; at most 124998 is allowed",
                () -> CFCheckpt.parse(oneMore));
        assertMessage("cfcheckpt filter header list holds 124999 hashes; at most 124998 are allowed",
                () -> new CFCheckpt(STOP, Collections.nCopies(CFCheckpt.MAX_HEADERS + 1, STOP)));
    }

    /** A synthetic chain of 3500 filter headers with checkpoints at 1000, 2000 and 3000. */
    private static final List<Hash256> FILTER_HASHES = new ArrayList<>();
    private static final List<Hash256> HEADERS = new ArrayList<>();

    static {
        Hash256 previous = FilterHeaders.GENESIS_PREVIOUS_HEADER;
        for (int height = 0; height < 3500; height++) {
            Hash256 filterHash = Sha256d.hash(new byte[] {(byte) height, (byte) (height >> 8)});
            FILTER_HASHES.add(filterHash);
            previous = FilterHeaders.header(filterHash, previous);
            HEADERS.add(previous);
        }
    }

    private static CFCheckpt checkpoints() {
        return new CFCheckpt(STOP, List.of(HEADERS.get(1000), HEADERS.get(2000), HEADERS.get(3000)));
    }

    private static CFHeaders interval(int first, int last, List<Hash256> filterHashes) {
        Hash256 previous = first == 0 ? FilterHeaders.GENESIS_PREVIOUS_HEADER : HEADERS.get(first - 1);
        return new CFHeaders(STOP, previous, filterHashes.subList(first, last + 1));
    }

    @Test
    void honestIntervalsMeetTheCheckpoints() {
        assertEquals(OptionalLong.empty(), FilterHeaders.firstDisagreement(1001, interval(1001, 2000, FILTER_HASHES),
                checkpoints()));
        assertEquals(OptionalLong.empty(), FilterHeaders.firstDisagreement(0, interval(0, 1999, FILTER_HASHES),
                checkpoints()));
        assertEquals(OptionalLong.empty(), FilterHeaders.firstDisagreement(3001, interval(3001, 3499, FILTER_HASHES),
                checkpoints()));
        assertEquals(HEADERS.subList(1500, 3500),
                FilterHeaders.verify(1500, interval(1500, 3499, FILTER_HASHES), checkpoints()));
    }

    @Test
    void aLyingIntervalIsReportedAtTheFirstCheckpointItBreaks() {
        List<Hash256> forged = new ArrayList<>(FILTER_HASHES);
        forged.set(1500, Hash256.ZERO);
        assertEquals(OptionalLong.of(2000), FilterHeaders.firstDisagreement(1001, interval(1001, 2000, forged),
                checkpoints()));
        assertEquals(OptionalLong.of(2000), FilterHeaders.firstDisagreement(1, interval(1, 2000, forged),
                checkpoints()));
        // The last checkpoint (3000, the third of three) is compared too: as the interval's end, and as the header a
        // later interval chains on.
        List<Hash256> forgedLate = new ArrayList<>(FILTER_HASHES);
        forgedLate.set(2500, Hash256.ZERO);
        assertEquals(OptionalLong.of(3000), FilterHeaders.firstDisagreement(2001, interval(2001, 3000, forgedLate),
                checkpoints()));
        assertEquals(OptionalLong.of(3000), FilterHeaders.firstDisagreement(3001,
                new CFHeaders(STOP, HEADERS.get(2999), FILTER_HASHES.subList(3001, 3101)), checkpoints()));
        CFHeaders wrongPrevious = new CFHeaders(STOP, HEADERS.get(999), FILTER_HASHES.subList(1001, 1101));
        assertEquals(OptionalLong.of(1000), FilterHeaders.firstDisagreement(1001, wrongPrevious, checkpoints()));
        CFHeaders genesisOnWrongBase = new CFHeaders(STOP, HEADERS.get(0), FILTER_HASHES.subList(0, 10));
        assertEquals(OptionalLong.of(0), FilterHeaders.firstDisagreement(0, genesisOnWrongBase, checkpoints()));
        assertMessage("filter header at height 2000 is " + interval(1001, 2000, forged).headers().get(999)
                + " but the checkpoint says " + HEADERS.get(2000),
                () -> FilterHeaders.verify(1001, interval(1001, 2000, forged), checkpoints()));
        assertMessage("filter header at height 1000 is " + HEADERS.get(999) + " but the checkpoint says "
                + HEADERS.get(1000), () -> FilterHeaders.verify(1001, wrongPrevious, checkpoints()));
        assertMessage("cfheaders from height 0 chains on " + HEADERS.get(0)
                + "; the genesis filter header chains on 32 zero bytes",
                () -> FilterHeaders.verify(0, genesisOnWrongBase, checkpoints()));
        assertMessage("first height is -1; it must be >= 0",
                () -> FilterHeaders.firstDisagreement(-1, wrongPrevious, checkpoints()));
    }

    @Test
    void twoPeersCheckpointsDisagreeAtTheFirstDifferingHeight() {
        CFCheckpt honest = checkpoints();
        CFCheckpt liar = new CFCheckpt(STOP, List.of(HEADERS.get(1000), HEADERS.get(1999), HEADERS.get(3000)));
        CFCheckpt shorter = new CFCheckpt(STOP, List.of(HEADERS.get(1000)));
        assertEquals(OptionalLong.of(2000), FilterHeaders.firstDisagreement(honest, liar));
        assertEquals(OptionalLong.of(2000), FilterHeaders.firstDisagreement(honest, shorter));
        assertEquals(OptionalLong.empty(), FilterHeaders.firstDisagreement(honest, checkpoints()));
        assertTrue(FilterHeaders.firstDisagreement(shorter, shorter).isEmpty());
    }

    private static void assertMessage(String expected, Executable executable) {
        assertEquals(expected, assertThrows(IllegalArgumentException.class, executable).getMessage());
    }

    /** CFilter.equals ignoring the block hash passed every test (found by a mutation review). */
    @Test
    void cfiltersOfDifferentBlocksAreNotEqual() {
        byte[] filter = Hex.decode("019dfca8");
        assertEquals(new CFilter(STOP, filter), new CFilter(STOP, filter.clone()));
        assertNotEquals(new CFilter(STOP, filter), new CFilter(Hash256.ZERO, filter));
    }

    /**
     * CFHeaders.equals ignoring the previous filter header passed every test (found by a mutation review): two such
     * messages give different header chains.
     */
    @Test
    void cfheadersOnDifferentPreviousHeadersAreNotEqual() {
        List<Hash256> hashes = List.of(STOP);
        CFHeaders onZero = new CFHeaders(STOP, Hash256.ZERO, hashes);
        CFHeaders onStop = new CFHeaders(STOP, STOP, hashes);
        assertEquals(onZero, new CFHeaders(STOP, Hash256.ZERO, hashes));
        assertNotEquals(onZero.headers(), onStop.headers());
        assertNotEquals(onZero, onStop);
    }

    /** CFCheckpt.equals ignoring the stop hash passed every test (found by a mutation review). */
    @Test
    void cfcheckptsUpToDifferentStopHashesAreNotEqual() {
        List<Hash256> headers = List.of(Hash256.ZERO);
        assertEquals(new CFCheckpt(STOP, headers), new CFCheckpt(STOP, headers));
        assertNotEquals(new CFCheckpt(STOP, headers), new CFCheckpt(Hash256.ZERO, headers));
    }

    /**
     * getcfilters and getcfheaders share their payload but are different requests: FilterRangeRequest.equals ignoring
     * the command passed every test (found by a mutation review).
     */
    @Test
    void getcfiltersAndGetcfheadersForTheSameRangeAreNotEqual() {
        FilterRangeRequest filters = FilterRangeRequest.getCFilters(1000, STOP);
        FilterRangeRequest headers = FilterRangeRequest.getCFHeaders(1000, STOP);
        assertArrayEquals(filters.serialize(), headers.serialize());
        assertEquals(filters, FilterRangeRequest.getCFilters(1000, STOP));
        assertNotEquals(filters, headers);
    }
}
