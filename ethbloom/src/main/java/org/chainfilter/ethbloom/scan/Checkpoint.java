package org.chainfilter.ethbloom.scan;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.chainfilter.common.Hex;
import org.chainfilter.ethbloom.LogFilter;

/**
 * Where a scan stands: every block below {@code nextBlock} has been scanned and its matching logs handed to the
 * consumer; {@code lastBlockHash} is the hash of block {@code nextBlock - 1} as the scan saw it (to notice, on resume,
 * a chain that reorganised below the checkpoint); {@code filterFingerprint} ties the checkpoint to one filter.
 *
 * @param nextBlock         the first block not yet scanned, not negative
 * @param lastBlockHash     {@code 0x} + 64 hex digits, the hash of block {@code nextBlock - 1}
 * @param filterFingerprint {@link #fingerprint(LogFilter)} of the scan's filter, 64 hex digits
 */
public record Checkpoint(long nextBlock, String lastBlockHash, String filterFingerprint) {
    private static final Pattern BLOCK_HASH = Pattern.compile("0x[0-9a-f]{64}");
    private static final Pattern FINGERPRINT = Pattern.compile("[0-9a-f]{64}");

    public Checkpoint {
        Objects.requireNonNull(lastBlockHash, "lastBlockHash");
        Objects.requireNonNull(filterFingerprint, "filterFingerprint");
        if (nextBlock < 1) {
            throw new IllegalArgumentException("checkpoint nextBlock is " + nextBlock
                    + "; it must be at least 1 (a checkpoint is written after a block is scanned)");
        }
        if (!BLOCK_HASH.matcher(lastBlockHash).matches()) {
            throw new IllegalArgumentException("checkpoint lastBlockHash is '" + lastBlockHash
                    + "'; expected 0x and 64 lower-case hex digits");
        }
        if (!FINGERPRINT.matcher(filterFingerprint).matches()) {
            throw new IllegalArgumentException("checkpoint filter fingerprint is '" + filterFingerprint
                    + "'; expected 64 lower-case hex digits");
        }
    }

    /**
     * SHA-256 over a canonical text of the filter (addresses, then each topic position, {@code *} for a wildcard,
     * alternatives in the filter's order), as 64 hex digits. Two filters built from the same arguments share it.
     */
    public static String fingerprint(LogFilter filter) {
        StringBuilder text = new StringBuilder("addresses:");
        appendAll(text, filter.addresses());
        for (List<byte[]> position : filter.topics()) {
            text.append("|topic:");
            if (position == null) {
                text.append('*');
            } else {
                appendAll(text, position);
            }
        }
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            return Hex.encode(sha256.digest(text.toString().getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static void appendAll(StringBuilder text, List<byte[]> values) {
        for (byte[] value : values) {
            text.append(Hex.encode(value)).append(',');
        }
    }
}
