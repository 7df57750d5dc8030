package org.chainfilter.ethbloom.scan;

import java.util.Optional;

/** Where a {@link BlockScanner} keeps its {@link Checkpoint}. */
public interface CheckpointStore {
    /** The saved checkpoint, if any. */
    Optional<Checkpoint> load();

    /** Replaces the saved checkpoint; when this returns, a crash must not lose it. */
    void save(Checkpoint checkpoint);

    /** A store that keeps nothing: every scan starts at its first block. */
    static CheckpointStore none() {
        return new CheckpointStore() {
            @Override
            public Optional<Checkpoint> load() {
                return Optional.empty();
            }

            @Override
            public void save(Checkpoint checkpoint) {
                // nothing to keep: a scan without a checkpoint cannot resume
            }
        };
    }
}
