// SPDX-License-Identifier: Apache-2.0
// Test contracts for the ethbloom block-scanner tests: every LOG opcode (LOG0..LOG4), indexed addresses,
// indexed bytes32 values, anonymous events, and a burst that fills a block's bloom.
pragma solidity 0.8.28;

/// Emits one of six events per call; the caller picks the event and its indexed values, so the test
/// chain can draw them from small sets and random filters hit real logs.
contract EventSource {
    event Transfer(address indexed from, address indexed to, uint256 value);                             // LOG3
    event Approval(address indexed owner, address indexed spender, uint256 value);                       // LOG3
    event Note(uint256 value);                                                                            // LOG1
    event Raw(uint256 value) anonymous;                                                                   // LOG0
    event Quad(bytes32 indexed a, bytes32 indexed b, address indexed who, uint256 value);                 // LOG4
    event AnonQuad(bytes32 indexed a, bytes32 indexed b, address indexed who, bytes32 indexed c) anonymous; // LOG4

    function fire(uint8 kind, address a, address b, bytes32 t1, bytes32 t2, uint256 value) external {
        if (kind == 0) emit Transfer(a, b, value);
        else if (kind == 1) emit Approval(a, b, value);
        else if (kind == 2) emit Note(value);
        else if (kind == 3) emit Raw(value);
        else if (kind == 4) emit Quad(t1, t2, a, value);
        else emit AnonQuad(t1, t2, b, bytes32(value));
    }

    /// Many Transfer logs with pseudo-random addresses: pushes the block's bloom towards saturation.
    function burst(uint256 seed, uint256 count) external {
        for (uint256 i = 0; i < count; i++) {
            bytes32 h = keccak256(abi.encode(seed, i));
            emit Transfer(address(uint160(uint256(h))), address(uint160(uint256(h) >> 96)), i);
        }
    }
}

/// A second contract with its own event signatures, so filters over several addresses and topic-0 sets
/// meet logs of different shapes.
contract Registry {
    event Registered(bytes32 indexed name, address indexed owner);                                       // LOG3
    event Touched();                                                                                       // LOG1
    event Renamed(bytes32 indexed from, bytes32 to);                                                      // LOG2

    function register(bytes32 name, address owner) external {
        emit Registered(name, owner);
        emit Touched();
    }

    function rename(bytes32 from, bytes32 to) external {
        emit Renamed(from, to);
    }
}
