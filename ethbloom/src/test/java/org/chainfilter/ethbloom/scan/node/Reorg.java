package org.chainfilter.ethbloom.scan.node;

import java.util.Map;

/**
 * A reorganisation on anvil for index tests: blocks 1..20, a snapshot, blocks 21..40 without logs (the fork to be
 * abandoned), then a revert to the snapshot and a new block 21 holding one log with {@link #TOPIC}, where the abandoned
 * fork had none.
 */
public final class Reorg {
    /** The topic of the new fork's log. */
    public static final String TOPIC = "0x" + "5e".repeat(32);
    /** Init code that emits LOG1(TOPIC) from the new contract's address and deploys no code. */
    private static final String LOG_IN_CONSTRUCTOR = "0x7f" + TOPIC.substring(2) + "60006000a100";

    private Reorg() {
    }

    /** Mines blocks 1..20, snapshots, mines 21..40 (no logs); returns the snapshot's id. */
    public static String mineForkToAbandon(AnvilNode node) {
        node.rpc("anvil_mine", "0x14");
        String snapshot = node.rpc("evm_snapshot").asText();
        node.rpc("anvil_mine", "0x14");
        return snapshot;
    }

    /** Reverts to {@code snapshot} and mines block 21 with the log; the head is then 21. */
    public static void revertWithLogInBlock21(AnvilNode node, String snapshot) throws InterruptedException {
        node.rpc("evm_revert", snapshot);
        mineLogBlock(node);
    }

    /** Mines one block holding one log with {@link #TOPIC}; returns its number. */
    public static long mineLogBlock(AnvilNode node) throws InterruptedException {
        long next = head(node) + 1;
        String from = node.rpc("eth_accounts").get(0).asText();
        node.rpc("eth_sendTransaction", Map.of("from", from, "data", LOG_IN_CONSTRUCTOR, "gas", "0x100000"));
        // Automine seals the block asynchronously.
        for (int wait = 0; head(node) < next && wait < 100; wait++) {
            Thread.sleep(50);
        }
        if (head(node) != next) {
            throw new IllegalStateException("the log's block was not mined: head " + head(node));
        }
        return next;
    }

    public static long head(AnvilNode node) {
        return Long.decode(node.rpc("eth_blockNumber").asText());
    }

    public static String hash(AnvilNode node, long block) {
        return node.rpc("eth_getBlockByNumber", "0x" + Long.toHexString(block), false).get("hash").asText();
    }
}
