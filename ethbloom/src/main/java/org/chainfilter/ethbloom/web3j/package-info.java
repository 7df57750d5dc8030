/**
 * web3j interop: blooms of web3j {@code Log}, {@code TransactionReceipt} and {@code EthBlock.Block} values, exact
 * matching of web3j logs with a {@link org.chainfilter.ethbloom.LogFilter}, and filters as web3j {@code EthFilter}
 * requests ({@link org.chainfilter.ethbloom.web3j.Web3jLogs}).
 */
package org.chainfilter.ethbloom.web3j;
