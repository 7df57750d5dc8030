package org.chainfilter.ethbloom.web3j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;
import org.chainfilter.ethbloom.LogsBloom;
import org.junit.jupiter.api.Test;
import org.web3j.protocol.core.DefaultBlockParameter;
import org.web3j.protocol.core.methods.request.EthFilter;
import org.web3j.protocol.core.methods.response.EthBlock;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Bloom;

class Web3jLogsTest {

    static Log log(String address, String... topics) {
        return new Log(false, "0x0", "0x0", "0x01", "0x02", "0x1", address, "0x", null, List.of(topics));
    }

    static String randomHex(SplittableRandom random, int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        // Mixed case, as checksummed addresses arrive.
        String hex = Hex.encode(b);
        return "0x" + (random.nextBoolean() ? hex.toUpperCase() : hex);
    }

    /** Differential test: our bloom equals web3j's org.web3j.utils.Bloom on 5,000 random receipts. */
    @Test
    void equalsWeb3jBloomOnRandomLogs() {
        SplittableRandom random = new SplittableRandom(4242);
        for (int receipt = 0; receipt < 5_000; receipt++) {
            int logCount = random.nextInt(6);
            List<Log> logs = new ArrayList<>();
            Bloom reference = new Bloom();
            for (int l = 0; l < logCount; l++) {
                String address = randomHex(random, 20);
                String[] topics = new String[random.nextInt(5)];
                reference.add(Hex.decode(address));
                for (int t = 0; t < topics.length; t++) {
                    topics[t] = randomHex(random, 32);
                    reference.add(Hex.decode(topics[t]));
                }
                logs.add(log(address, topics));
            }
            TransactionReceipt r = new TransactionReceipt();
            r.setLogs(logs);
            LogsBloom ours = Web3jLogs.bloomOf(r);
            assertArrayEquals(reference.getBytes(), ours.toBytes(), "receipt " + receipt);
            assertEquals(ours, LogsBloom.fromHex(reference.getBytesHexString()));
            for (Log log : logs) {
                byte[] address = Hex.decode(log.getAddress());
                assertEquals(reference.test(address), ours.mightContain(address));
            }
        }
    }

    @Test
    void receiptAndBlockBloomsAreParsedStrictly() {
        Log one = log("0x095e7baea6a6c7c4c2dfeb977efac326af552d87", "0x" + "00".repeat(32));
        TransactionReceipt receipt = new TransactionReceipt();
        receipt.setTransactionHash("0xabc");
        receipt.setLogs(List.of(one));
        LogsBloom computed = Web3jLogs.bloomOf(receipt);
        assertEquals(computed, Web3jLogs.bloomOf(one));
        receipt.setLogsBloom(computed.toHex());
        assertEquals(computed, Web3jLogs.publishedBloom(receipt));

        receipt.setLogsBloom("0x" + "00".repeat(255));
        assertEquals("receipt 0xabc: logsBloom is 255 bytes; it must be exactly 256 bytes",
                assertThrows(IllegalArgumentException.class, () -> Web3jLogs.publishedBloom(receipt)).getMessage());
        receipt.setLogsBloom(null);
        assertEquals("receipt 0xabc has no logsBloom",
                assertThrows(IllegalArgumentException.class, () -> Web3jLogs.publishedBloom(receipt)).getMessage());

        EthBlock.Block block = new EthBlock.Block();
        block.setNumber("0x36");
        block.setLogsBloom("0x");
        assertEquals("block 0x36: logsBloom is 0 bytes; it must be exactly 256 bytes",
                assertThrows(IllegalArgumentException.class, () -> Web3jLogs.headerBloom(block)).getMessage());
        block.setLogsBloom(computed.toHex().toUpperCase().replace("0X", "0x"));
        assertEquals(computed, Web3jLogs.headerBloom(block));
    }

    @Test
    void badAddressesAndTopicsAreRefused() {
        assertEquals("log address is 19 bytes; it must be exactly 20 bytes", assertThrows(
                IllegalArgumentException.class, () -> Web3jLogs.bloomOf(log("0x" + "11".repeat(19)))).getMessage());
        assertEquals("log topic 1 is 31 bytes; it must be exactly 32 bytes", assertThrows(
                IllegalArgumentException.class,
                () -> Web3jLogs.bloomOf(log("0x" + "11".repeat(20), "0x" + "22".repeat(32), "0x" + "22".repeat(31))))
                .getMessage());
        assertEquals("log has no address", assertThrows(
                IllegalArgumentException.class, () -> Web3jLogs.bloomOf(log(null))).getMessage());
        assertEquals("log address: not a hex digit: 'g' at position 2", assertThrows(
                IllegalArgumentException.class, () -> Web3jLogs.bloomOf(log("0xg" + "1".repeat(39)))).getMessage());
    }

    /**
     * A log topic that is absent from a web3j log is refused ("when a topic is absent"), not skipped: skipping it
     * would move the later topics to other positions, and the exact match would then test the wrong topic.
     */
    @Test
    void aNullTopicInALogIsRefusedNotSkipped() {
        String a = "0x" + "aa".repeat(20);
        String t1 = "0x" + "01".repeat(32);
        String t2 = "0x" + "02".repeat(32);
        Log withNull = new Log(false, "0x0", "0x0", "0x01", "0x02", "0x1", a, "0x", null,
                java.util.Arrays.asList(t1, null, t2));
        LogFilter secondIsT2 = LogFilter.builder().anyTopic(0).topic(1, Hex.decode(t2)).build();
        assertEquals("log topic 1 is null",
                assertThrows(IllegalArgumentException.class, () -> Web3jLogs.topics(withNull)).getMessage());
        assertEquals("log topic 1 is null", assertThrows(IllegalArgumentException.class,
                () -> Web3jLogs.matches(secondIsT2, withNull)).getMessage());
        assertEquals("log topic 1 is null",
                assertThrows(IllegalArgumentException.class, () -> Web3jLogs.bloomOf(withNull)).getMessage());
    }

    /** Every address alternative and every topic alternative reaches the eth_getLogs request, in order. */
    @Test
    void toEthFilterKeepsEveryAlternative() throws Exception {
        String a = "0x" + "aa".repeat(20);
        String b = "0x" + "bb".repeat(20);
        String t1 = "0x" + "01".repeat(32);
        String t2 = "0x" + "02".repeat(32);
        String t3 = "0x" + "03".repeat(32);
        LogFilter filter = LogFilter.builder().address(Hex.decode(a), Hex.decode(b)).anyTopic(0)
                .topic(1, Hex.decode(t1), Hex.decode(t2)).topic(2, Hex.decode(t3)).build();
        EthFilter request = Web3jLogs.toEthFilter(filter, DefaultBlockParameter.valueOf(java.math.BigInteger.ONE),
                DefaultBlockParameter.valueOf(java.math.BigInteger.TEN));
        assertEquals(List.of(a, b), request.getAddress());
        String json = org.web3j.protocol.ObjectMapperFactory.getObjectMapper().writeValueAsString(request);
        assertEquals("{\"topics\":[null,[\"" + t1 + "\",\"" + t2 + "\"],[\"" + t3 + "\"]],\"fromBlock\":\"0x1\","
                + "\"toBlock\":\"0xa\",\"address\":[\"" + a + "\",\"" + b + "\"]}", json);
    }

    @Test
    void filtersWeb3jLogsAndBuildsEthFilter() throws Exception {
        String a = "0x" + "aa".repeat(20);
        String t1 = "0x" + "01".repeat(32);
        String t2 = "0x" + "02".repeat(32);
        Log match = log(a, t1, t2);
        Log tooFewTopics = log(a, t1);
        Log other = log("0x" + "bb".repeat(20), t1, t2);
        LogFilter filter = LogFilter.builder().address(Hex.decode(a)).topic(0, Hex.decode(t1)).anyTopic(1).build();
        assertTrue(Web3jLogs.matches(filter, match));
        assertFalse(Web3jLogs.matches(filter, tooFewTopics));
        List<Log> kept = Web3jLogs.filterLogs(filter, List.of(other, match, tooFewTopics));
        assertEquals(1, kept.size());
        assertSame(match, kept.get(0));

        EthFilter request = Web3jLogs.toEthFilter(filter, DefaultBlockParameter.valueOf(java.math.BigInteger.ONE),
                DefaultBlockParameter.valueOf(java.math.BigInteger.TEN));
        assertEquals(List.of(a), request.getAddress());
        String json = org.web3j.protocol.ObjectMapperFactory.getObjectMapper().writeValueAsString(request);
        assertEquals("{\"topics\":[[\"" + t1 + "\"],null],\"fromBlock\":\"0x1\",\"toBlock\":\"0xa\",\"address\":[\""
                + a + "\"]}", json);
    }
}
