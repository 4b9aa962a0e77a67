// Package link is the one place that changes a network interface's link
// state: up, down, MTU, and its index. The monitor interface, the
// injection socket's interface, the TAP and the interfaces a takeover
// brings down all go through it. Each call opens an AF_INET datagram
// socket for the ioctl in the calling thread's network namespace.
//
// It also reads interfaces' counters (StatsReader: rtnetlink's
// RTM_GETSTATS on a socket of its own, allocating nothing per read), which
// the daemon polls every second for the kernel's drops.
//
// Errors name the step ("bring up: ...", "set MTU 2560: ..."); the caller
// names the interface and its own operation.
package link
