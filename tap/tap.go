package tap

import (
	"errors"
	"fmt"
)

// ErrNotSupported is returned by Open on operating systems without TAP
// devices.
var ErrNotSupported = errors.New("tap: not supported on this OS")

// ErrClosed is returned by a Device's methods after Close.
var ErrClosed = errors.New("tap: device closed")

// MaxBatch is the most frames one ReadBatch call returns.
const MaxBatch = 64

// Stats are the device's counters since Open.
type Stats struct {
	RxFrames    uint64 // frames returned by ReadBatch (host -> airq)
	RxBytes     uint64
	RxTruncated uint64 // frames longer than the caller's buffer
	// With offloads (Options), RxFrames counts the segments airq cut;
	// RxGSO counts the GSO frames they came from, and RxBadOffload the
	// frames dropped because their vnet header did not match them.
	RxGSO        uint64
	RxBadOffload uint64
	TxFrames     uint64 // frames written (airq -> host)
	TxBytes      uint64
	TxErrors     uint64 // frames the kernel refused
	// TxGSO counts the writes that carried several TCP segments merged
	// into one GSO frame (OffloadGRO, OffloadTSO); TxFrames counts the
	// segments.
	TxGSO uint64
	// The kernel's counters of the interface (IFLA_STATS64). Its "tx" is
	// towards airq: KernelTxDropped counts frames tun dropped because airq
	// did not read them fast enough. Its "rx" is from airq.
	//
	// tun queues frames for the reader in a ring of txqueuelen entries
	// (1000 by default) and drops, counting in tx_dropped, every frame that
	// finds the ring full; it does not stop the netdev queue, so the qdisc
	// in front of it (pfifo_fast) passes everything and drops nothing.
	// KernelTxDropped is therefore the whole count of host frames lost
	// for want of reading (checked on 6.18: 3000 unread frames, 2000
	// dropped). KernelTxPackets counts only frames airq has read.
	KernelTxPackets uint64
	KernelTxDropped uint64
	KernelRxPackets uint64
	KernelRxDropped uint64
}

// KernelDrops is the number of host frames tun dropped because they were
// not read in time (Stats().KernelTxDropped), for the daemon's books.
func (d *Device) KernelDrops() uint64 { return d.Stats().KernelTxDropped }

// Options configures Open. The zero value is what airqd runs with.
type Options struct {
	Offload Offload
}

// Offload is what the TAP's virtio-net header (IFF_VNET_HDR) is used for.
type Offload uint8

const (
	// OffloadGRO, the zero Offload: WriteBatch merges a station's consecutive
	// TCP segments into one GSO frame for the host, as a NIC's GRO does;
	// the host hands airq one segmented, checksummed frame per read.
	OffloadGRO Offload = iota
	// OffloadTSO adds checksum and segmentation offload towards airq
	// (TUNSETOFFLOAD): the host's stack hands over one TCP send of up to
	// 64 KiB with its checksum left partial, and ReadBatch cuts it. That
	// saves reads, but the host's TCP then builds GSO sends and defers
	// them; under qemu that once halved downlink TCP at nice 0, and now
	// gains 12% at nice -10 (see doc.go).
	OffloadTSO
	// OffloadOff exchanges plain frames, one system call per frame.
	OffloadOff
	numOffloads
)

var offloadNames = [numOffloads]string{"gro", "tso", "off"}

func (o Offload) String() string {
	if o < numOffloads {
		return offloadNames[o]
	}
	return fmt.Sprintf("offload(%d)", uint8(o))
}

// ParseOffload reads an Offload by its name: gro, tso or off.
func ParseOffload(s string) (Offload, error) {
	for o, name := range offloadNames {
		if s == name {
			return Offload(o), nil
		}
	}
	return 0, fmt.Errorf("tap offload %q: want gro, tso or off", s)
}
