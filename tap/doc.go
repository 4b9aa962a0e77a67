// Package tap is the wired side of the access point: a Linux TAP device
// carrying Ethernet frames between airq and the host's network stack.
//
// Open creates a non-persistent TAP (IFF_TAP|IFF_NO_PI), so closing it
// removes the interface, and brings it up. The file descriptor is
// non-blocking and served by the Go netpoller: ReadBatch blocks for one frame
// and then drains what is ready, and Close unblocks it.
//
// Always drain the TAP. When the reader falls behind, the kernel's queue for
// the device fills and tun drops further frames silently; Stats reports that
// counter (KernelTxDropped) along with airq's own.
package tap
