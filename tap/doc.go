// Package tap is the wired side of the access point: a Linux TAP device
// carrying Ethernet frames between airq and the host's network stack.
//
// Open creates a non-persistent TAP (IFF_TAP|IFF_NO_PI), so closing it
// removes the interface, and brings it up. The file descriptor is
// non-blocking and served by the Go netpoller: ReadBatch blocks for one frame
// and then drains what is ready, and Close unblocks it.
//
// Offloads (the default; Options.NoOffload turns them off): with
// IFF_VNET_HDR and TUNSETOFFLOAD the host's stack hands over one TCP send of
// up to 64 KiB as one GSO frame, and leaves checksums partial; ReadBatch cuts
// it into the segments a NIC would have sent, each with its own headers and
// checksums, so the caller still sees one MTU-sized frame per buffer. The
// other way, WriteBatch merges consecutive TCP segments of one flow into one
// GSO frame, as a NIC's GRO does, and the host's stack takes it in one pass
// and acknowledges it once. Both cost a copy per frame and no allocation; a
// read or a write costs a system call, which is what they save.
//
// Always drain the TAP. When the reader falls behind, the kernel's queue for
// the device fills and tun drops further frames silently; Stats reports that
// counter (KernelTxDropped) along with airq's own.
package tap
