package org.chainfilter.cli;

import java.io.PrintWriter;
import java.math.BigInteger;
import org.chainfilter.common.hash.Murmur3;
import org.chainfilter.common.hash.SipHash24;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code chainfilter hash}: the library's hash functions on hex input, for checking values by hand. */
@Command(name = "hash", description = "Hash hex bytes with MurmurHash3 or SipHash-2-4.",
        mixinStandardHelpOptions = true, subcommands = {HashCommand.Murmur3Command.class, HashCommand.SipHashCommand.class})
final class HashCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "a hash function is required: murmur3 or siphash");
    }

    /** {@code chainfilter hash murmur3 --seed S HEX}. */
    @Command(name = "murmur3", mixinStandardHelpOptions = true,
            description = {"MurmurHash3 of HEX.",
                "x86_32 (BIP37's, default) prints the 32-bit hash as 8 hex digits; --x64-128 prints the reference's 16"
                    + " output bytes (h1 then h2, each little-endian)."})
    static final class Murmur3Command implements Runnable {
        @Spec
        private CommandSpec spec;

        @Option(names = "--seed", paramLabel = "S", defaultValue = "0",
                description = "Seed, decimal or 0x-hex, 0 to 0xffffffff (default 0).")
        private String seed;

        @Option(names = "--x64-128", description = "Use MurmurHash3_x64_128 instead of x86_32.")
        private boolean x64;

        @Parameters(paramLabel = "HEX", description = "The bytes to hash, as hex (0x prefix allowed; '' for none).")
        private String hex;

        @Override
        public void run() {
            int seedBits = parseSeed(seed);
            byte[] data = CliInputs.hex("HEX", hex);
            PrintWriter out = spec.commandLine().getOut();
            if (x64) {
                long[] h = Murmur3.x64_128(seedBits, data);
                out.printf("%016x%016x%n", Long.reverseBytes(h[0]), Long.reverseBytes(h[1]));
            } else {
                out.printf("%08x%n", Murmur3.x86_32(seedBits, data));
            }
        }
    }

    /** {@code chainfilter hash siphash --key HEX HEX}. */
    @Command(name = "siphash", mixinStandardHelpOptions = true,
            description = {"SipHash-2-4 of HEX under a 16-byte key.",
                "Prints the 64-bit result as 16 hex digits, most significant first (Bitcoin Core's form); --bytes prints"
                    + " the reference's 8 output bytes instead."})
    static final class SipHashCommand implements Runnable {
        @Spec
        private CommandSpec spec;

        @Option(names = "--key", paramLabel = "HEX", required = true, description = "The 16-byte key as hex.")
        private String key;

        @Option(names = "--bytes", description = "Print the 8 output bytes (little-endian) as the reference writes them.")
        private boolean bytes;

        @Parameters(paramLabel = "HEX", description = "The bytes to hash, as hex (0x prefix allowed; '' for none).")
        private String hex;

        @Override
        public void run() {
            byte[] keyBytes = CliInputs.hex("--key", key);
            if (keyBytes.length != 16) {
                throw new IllegalArgumentException(
                        "--key is " + keyBytes.length + " bytes; SipHash-2-4 takes a key of exactly 16 bytes");
            }
            long hash = SipHash24.hash(keyBytes, CliInputs.hex("HEX", hex));
            spec.commandLine().getOut().printf("%016x%n", bytes ? Long.reverseBytes(hash) : hash);
        }
    }

    /** A 32-bit unsigned seed from decimal or {@code 0x}-hex text. */
    static int parseSeed(String text) {
        long value = decimalOrHex(text, "seed");
        if (value < 0 || value > 0xffffffffL) {
            throw new IllegalArgumentException("seed is " + text + "; it must be within [0, 0xffffffff]");
        }
        return (int) value;
    }

    /**
     * A whole number written in decimal or as {@code 0x}-hex (nTweak and seeds are often shown in hex); the caller
     * checks its range. A number beyond a {@code long} comes back as {@link Long#MAX_VALUE} (or {@link Long#MIN_VALUE}
     * when negative), which every caller's range refuses with the text as typed: it is a number, only too large.
     *
     * @throws IllegalArgumentException naming {@code what} if the text is neither
     */
    static long decimalOrHex(String text, String what) {
        String digits = text.strip();
        boolean hexadecimal = digits.startsWith("0x") || digits.startsWith("0X");
        BigInteger value;
        try {
            value = new BigInteger(hexadecimal ? digits.substring(2) : digits, hexadecimal ? 16 : 10);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " '" + text + "' is not a decimal or 0x-hex number");
        }
        return value.bitLength() < Long.SIZE ? value.longValue() : value.signum() > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
}
