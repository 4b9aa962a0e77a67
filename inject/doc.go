// Package inject is the radio.Device of a real radio: radiotap-framed 802.11
// frames read from and written to a Linux monitor interface through AF_PACKET
// sockets.
//
// Open brings the interface up and opens two packet sockets bound to it:
//
//   - a receive socket (ETH_P_ALL, PACKET_IGNORE_OUTGOING, a large receive
//     buffer) that sees every received frame and every TX-status echo
//     mac80211 delivers to the monitor;
//   - a send-only socket (protocol 0, so the kernel queues nothing to it) with
//     PACKET_QDISC_BYPASS, so injected frames go straight to the driver
//     instead of waiting in the netdev qdisc under airq's own airtime limits.
//
// Two sockets keep the hot paths independent: the reader and the writer never
// contend on one socket, and the send socket has no receive queue to overflow.
// The cost is that the receive socket would see our own writes as outgoing
// copies (pkttype PACKET_OUTGOING) when they pass the packet taps; the kernel
// drops those with PACKET_IGNORE_OUTGOING and ReadBatch discards any that
// still arrive, counting them.
//
// With Options.Address set, a classic BPF filter attached to the receive
// socket before it is bound sheds what an access point never needs (ACK,
// RTS, CTS, frames of other BSSes) and keeps TX-status echoes, PS-Poll,
// BlockAckReq and everything to us or to our BSS's group addresses;
// SetScanning swaps it for one that also keeps other networks' beacons and
// probe responses (filter_linux.go lists the rules). It cuts each echo after
// its radiotap header and EchoKeep bytes (Options.FullEchoes keeps them
// whole): the status is in their headers, and the rest of each echo is a copy of the frame just sent,
// which the kernel would otherwise copy to us for nothing.
//
// Both sockets are non-blocking and driven by the Go netpoller; writes are
// batched with sendmmsg. The receive socket has a TPACKET_V2 ring mapped into
// the process (ring_linux.go): the kernel copies each frame into the next
// free slot and wakes the reader, which takes frames from the ring without a
// system call for as long as they keep coming, and waits in the netpoller
// only when the ring is empty. ReadViews hands out frames in place, their
// slots held until Release; ReadBatch copies them out. TPACKET_V3 is not
// used: it wakes the reader only when a block is full or its retire timer
// (milliseconds) fires, and TX-status echoes, which complete the core's
// in-flight records and its airtime budget, would wait that long. When the
// kernel refuses the ring, reads fall back to recvmmsg (Ring says why).
// Counters, including the kernel's PACKET_STATISTICS drops, are in Stats.
//
// recvmmsg and sendmmsg are raw system calls (no runtime bookkeeping). They
// never sleep, but a sendmmsg runs the driver and, on the same core, whatever
// the kernel delivers in its wake, which can take longer than the Go
// runtime's 20 µs monitor tick. A system call the runtime tracks would then
// lose its P to another thread (with GOMAXPROCS=1, the only P) and wait on
// return to get it back: two thread switches per call on the hot path.
package inject
