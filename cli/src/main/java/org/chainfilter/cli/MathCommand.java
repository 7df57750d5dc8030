package org.chainfilter.cli;

import java.io.PrintWriter;
import java.util.Locale;
import org.chainfilter.common.math.BloomMath;
import org.chainfilter.common.math.Shape;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code chainfilter math --elements N --fp P}: the optimal Bloom filter shape for N elements at rate P. */
@Command(name = "math", mixinStandardHelpOptions = true,
        description = {"The optimal Bloom filter for N elements at false-positive rate P.",
            "m = ceil(-N ln P / (ln 2)^2) bits, k = round((m/N) ln 2) hash functions, and the rate that shape gives."})
final class MathCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Option(names = "--elements", paramLabel = "N", required = true, converter = CountConverter.class,
            description = "Expected number of elements: an integer, with _ separators or as 1e6 if you like.")
    private long elements;

    @Option(names = "--fp", paramLabel = "P", required = true, converter = RateConverter.class,
            description = "Target false-positive rate, strictly between 0 and 1 (e.g. 0.01).")
    private double falsePositiveRate;

    @Override
    public void run() {
        Shape shape = Shape.fromElementsAndRate(elements, falsePositiveRate);
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "elements            %d%n", elements);
        out.printf(Locale.ROOT, "target rate         %s%n", falsePositiveRate);
        out.printf(Locale.ROOT, "bits (m)            %d%n", shape.bitCount());
        out.printf(Locale.ROOT, "hash functions (k)  %d%n", shape.hashFunctionCount());
        out.printf(Locale.ROOT, "bytes               %d (%s)%n", shape.byteCount(), humanBytes(shape.byteCount()));
        out.printf(Locale.ROOT, "bits per element    %.3f%n", (double) shape.bitCount() / elements);
        out.printf(Locale.ROOT, "expected rate       %.6g%n", BloomMath.falsePositiveRate(elements,
                shape.bitCount(), shape.hashFunctionCount()));
    }

    /**
     * A whole count written as 1000000, 1_000_000 or 1e6; anything that is not an exact integer is refused, and a
     * whole number beyond {@link Long#MAX_VALUE} in size is refused as such, not as "not a whole number".
     */
    static final class CountConverter implements picocli.CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String text) {
            java.math.BigDecimal value = wholeNumber(text);
            if (value.abs().compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                throw new picocli.CommandLine.TypeConversionException("'" + text + "' is a whole number beyond "
                        + Long.MAX_VALUE + " in size, the most a count can be");
            }
            return value.longValueExact();
        }
    }

    /** {@code text} as an exact whole number (1000000, 1_000_000, 1e6), of any size. */
    static java.math.BigDecimal wholeNumber(String text) {
        java.math.BigDecimal value;
        try {
            value = new java.math.BigDecimal(text.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new picocli.CommandLine.TypeConversionException("'" + text + "' is not a whole number");
        }
        if (value.signum() != 0 && value.stripTrailingZeros().scale() > 0) {
            throw new picocli.CommandLine.TypeConversionException("'" + text + "' is not a whole number");
        }
        return value;
    }

    /**
     * A rate written as a decimal number (0.01, 1e-6); refused when a double cannot hold it as a non-zero value
     * ("1e-400" would silently become 0.0 and be refused as "0.0") or as a finite one.
     */
    static final class RateConverter implements picocli.CommandLine.ITypeConverter<Double> {
        private static final java.util.regex.Pattern SUFFIX = java.util.regex.Pattern.compile("[dDfF]$");

        @Override
        public Double convert(String text) {
            String number = text.strip();
            java.math.BigDecimal exact = decimal(SUFFIX.matcher(number).replaceFirst(""));
            double value;
            boolean nonZero;
            if (exact != null) {
                value = exact.doubleValue();
                nonZero = exact.signum() != 0;
            } else {
                // Java's hexadecimal double literals (0x1p-7) as Double.parseDouble reads them, as before.
                try {
                    value = Double.parseDouble(number);
                } catch (NumberFormatException e) {
                    throw new picocli.CommandLine.TypeConversionException("'" + text + "' is not a decimal number");
                }
                if (Double.isNaN(value)) {
                    throw new picocli.CommandLine.TypeConversionException("'" + text + "' is not a number");
                }
                // A hex literal's value is zero only if its digits before the exponent are all zero.
                nonZero = number.toLowerCase(java.util.Locale.ROOT).replaceFirst("p.*$", "")
                        .replaceFirst("^[+-]?0x", "").matches(".*[1-9a-f].*");
            }
            if (value == 0 && nonZero) {
                throw new picocli.CommandLine.TypeConversionException("'" + text + "' is too small for a double (it"
                        + " rounds to 0); the smallest positive rate is " + Double.MIN_VALUE);
            }
            if (Double.isInfinite(value)) {
                throw new picocli.CommandLine.TypeConversionException("'" + text + "' is too large for a double");
            }
            return value;
        }

        /** {@code text} as an exact decimal, or null when it is not one. */
        private static java.math.BigDecimal decimal(String text) {
            try {
                return new java.math.BigDecimal(text);
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    /** Decimal units (1 MB = 10^6 bytes), as storage is usually quoted. */
    static String humanBytes(long bytes) {
        String[] units = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
        double value = bytes;
        int unit = 0;
        // 999.95 and up prints as 1000.0 at one decimal, so it takes the next unit (999,999 B is 1.0 MB, not 1000.0 kB).
        while (value >= 999.95 && unit < units.length - 1) {
            value /= 1000;
            unit++;
        }
        return unit == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
