// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title The one Multicall3 call x402's EVM facilitator makes, for the in-process test chain.
/// @notice x402 explains a failed simulation (nonce used, balance too low, wrong token) by reading the
///         token through `tryAggregate` at Multicall3's canonical address; a public chain has Multicall3
///         deployed there, the test chain gets this contract's code there instead.
/// @dev Written for this project (no third-party code), same ABI as Multicall3's `tryAggregate`.
contract TestMulticall {
    struct Call {
        address target;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function tryAggregate(bool requireSuccess, Call[] calldata calls) external payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory returned) = calls[i].target.call(calls[i].callData);
            require(success || !requireSuccess, "TestMulticall: call failed");
            results[i] = Result(success, returned);
        }
    }
}
