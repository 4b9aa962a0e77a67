// Package tap is the wired side of the access point: a Linux TAP device
// carrying Ethernet frames between airq and the host's network stack.
//
// Open creates a non-persistent TAP (IFF_TAP|IFF_NO_PI), so closing it
// removes the interface, and brings it up. The file descriptor is
// non-blocking and served by the Go netpoller: ReadBatch blocks for one frame
// and then drains what is ready, and Close unblocks it.
//
// Offloads (Options.Offload) use the virtio-net header (IFF_VNET_HDR). By
// default (OffloadGRO) WriteBatch merges consecutive TCP segments of one
// flow into one GSO frame, as a NIC's GRO does, and the host's stack takes
// it in one pass and acknowledges it once. OffloadTSO also asks for checksum
// and segmentation offload towards airq (TUNSETOFFLOAD): the host's stack
// hands over one TCP send of up to 64 KiB as one GSO frame, checksums left
// partial, and ReadBatch cuts it into the segments a NIC would have sent,
// each with its own headers and checksums, so the caller still sees one
// MTU-sized frame per buffer. Both cost a copy per frame and no allocation;
// a read or a write costs a system call, which is what they save.
//
// airqd asks for TSO when its datapath runs at a raised priority and for GRO
// otherwise, because of what TSO does to the sender: with
// checksum offload the host's TCP builds GSO sends and defers them to fill
// them, and where airq is the bottleneck that halved downlink TCP on the
// qemu test bed (iperf3 through airq on mac80211_hwsim, two runs each of
// two scenarios: 4.7-6.6 against 9.6-11.6 Mbit/s without, falling during
// each run), while merged writes alone raised uplink TCP from about 10 to
// 33-44 Mbit/s and left downlink where it was. Measured again once airqd's
// datapath ran at nice -10, TSO no longer cost throughput but gained none
// either (83-101 against 94-98 Mbit/s down). With instruction-counted guest
// time, which takes the host's load out of the figures, TSO gains 3-8% down
// (53.1-55.9 against 51.7-51.8 Mbit/s at nice -10, 36.7 against 35.2 at
// nice 0) and nothing up; measured again once the core's per-frame cost
// fell, 61.9 against 55.5 Mbit/s down at nice -10 (190.1 against 210.5 µs
// of guest CPU per segment) and 57.9 both up. The halving above was
// measured under the host's clock at nice 0, which is where GRO stays.
// Merging is what carries the uplink: with instruction-counted guest time,
// writing each segment alone (OffloadOff) cost 233.4-238.8 µs of guest CPU
// per segment against 193.4-195.3 merged, and carried 48.9-49.8 against
// 59.7-60.3 Mbit/s (test/e2e/README.md, "Merged writes to the TAP").
//
// readv and writev are raw system calls: the descriptor is non-blocking, so
// they never sleep, and a write runs the host's stack for the frame (a TCP
// ACK it takes can make it send the next segments), which takes longer than
// the runtime's 20 µs monitor tick. The runtime's bookkeeping would then hand
// the goroutine's P to another thread and back, two thread switches per call
// (package inject measured what that costs).
//
// Always drain the TAP. When the reader falls behind, the kernel's queue for
// the device fills and tun drops further frames silently; Stats reports that
// counter (KernelTxDropped) along with airq's own.
package tap
