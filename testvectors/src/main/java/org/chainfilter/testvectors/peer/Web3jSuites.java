package org.chainfilter.testvectors.peer;

import java.util.List;
import org.chainfilter.testvectors.ConformanceRunner;
import org.chainfilter.testvectors.Expect;
import org.chainfilter.testvectors.Fields;
import org.chainfilter.testvectors.Mismatch;
import org.chainfilter.testvectors.SuiteExecutor;
import org.chainfilter.testvectors.Suites;
import org.chainfilter.testvectors.Vector;
import org.web3j.utils.Bloom;

/**
 * The Ethereum bloom suites run against web3j's {@link Bloom} ({@code org.web3j:utils}) instead of chainfilter: a
 * differential check of the same published vectors on an independent implementation.
 */
public final class Web3jSuites {
    private Web3jSuites() {
    }

    /** Executors for {@code eth-bloom} and {@code eth-bloom-contains}. */
    public static List<SuiteExecutor> all() {
        return List.of(new BloomOfLogs(), new Membership());
    }

    public static ConformanceRunner runner() {
        return new ConformanceRunner(all());
    }

    /** {@code eth-bloom}: {@link Bloom#add(byte[])} of every address and topic. */
    static final class BloomOfLogs implements SuiteExecutor {
        @Override
        public String suite() {
            return Suites.ETH_BLOOM;
        }

        @Override
        public void check(Vector vector) throws Mismatch {
            Bloom bloom = new Bloom();
            for (Fields log : vector.objects("logs")) {
                bloom.add(log.hex("address"));
                for (byte[] topic : log.hexList("topics")) {
                    bloom.add(topic);
                }
            }
            Expect.bytes("bloom", vector.hex("bloom", 256), bloom.getBytes());
        }
    }

    /** {@code eth-bloom-contains}: {@link Bloom#test(byte[])} on the given bloom. */
    static final class Membership implements SuiteExecutor {
        @Override
        public String suite() {
            return Suites.ETH_BLOOM_CONTAINS;
        }

        @Override
        public void check(Vector vector) throws Mismatch {
            Bloom bloom = new Bloom(vector.hex("bloom", 256));
            Expect.membershipOfSomeItem(vector, suite(), "present", "absent", bloom::test, "web3j's bloom");
        }
    }
}
