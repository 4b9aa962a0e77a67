package inject

import "errors"

// ErrNotSupported is returned by Open on operating systems without AF_PACKET.
var ErrNotSupported = errors.New("inject: not supported on this OS")

// Options configures Open. The zero value is usable.
type Options struct {
	// MTU, if non-zero, is set on the interface before it is brought up.
	// A monitor interface starts with 1500; A-MSDUs need more.
	MTU int
	// ReadBuffer is the receive socket buffer in bytes (SO_RCVBUFFORCE,
	// falling back to SO_RCVBUF), and the receive ring's size. Zero means
	// DefaultReadBuffer.
	ReadBuffer int
	// UseQdisc sends through the interface's queueing discipline instead of
	// bypassing it. Packet taps (tcpdump) see our frames only with the qdisc.
	UseQdisc bool
	// Address, when not zero, is the access point's address (BSSID): a
	// receive filter attached before the socket is bound then sheds
	// control frames other than PS-Poll and BlockAckReq and frames for
	// other BSSes, and keeps TX-status echoes. See SetScanning.
	Address [6]byte
	// Others are the radio's other BSSIDs, one per BSS beside the first:
	// with Address set, the receive filter keeps frames to them as it keeps
	// frames to Address.
	Others [][6]byte
	// FullEchoes keeps TX-status echoes whole. By default the receive
	// filter cuts each after its radiotap header and EchoKeep bytes: the
	// radiotap and 802.11 headers are the status, and the rest would cost
	// a copy of the frame we just sent. A capture of the echoes wants
	// them whole.
	FullEchoes bool
	// NoRing reads with recvmmsg into the caller's buffers instead of
	// through a receive ring (TPACKET_V2), as Open does anyway when the
	// kernel refuses the ring (Device.Ring says why).
	NoRing bool
}

// EchoKeep is what the receive filter keeps of a TX-status echo's 802.11
// frame, after the radiotap header (whose length the filter reads): the
// longest header, a data frame's with four addresses, QoS Control and HT
// Control. An echo of a frame sent at 1,500 bytes so costs its radiotap
// header and 36 bytes in the receive ring, not the frame again.
const EchoKeep = 24 + 6 + 2 + 4

// DefaultReadBuffer is the receive buffer used when Options.ReadBuffer is 0,
// and so the receive ring's size: 640 slots. The ring's size does not move
// the CPU a frame costs (a 1 MiB ring measured the same per TCP segment on
// the e2e tier, test/e2e/README.md); what it buys is time: the frames the
// kernel can hold while the reader is kept from the ring (a collection, a
// slow control request) before it drops, 80 slots at 1 MiB against 640,
// about an eighth of a second of frames at 5,000 a second.
const DefaultReadBuffer = 8 << 20

// MaxBatch is the most frames one ReadBatch or WriteBatch call moves; longer
// batches are cut to this length.
const MaxBatch = 64

// Stats are the device's counters since Open.
type Stats struct {
	RxFrames    uint64 // frames returned by ReadBatch
	RxBytes     uint64 // bytes returned by ReadBatch (after truncation)
	RxTruncated uint64 // frames longer than the caller's buffer
	RxOutgoing  uint64 // outgoing copies (PACKET_OUTGOING) discarded
	RxBadSlots  uint64 // receive ring slots whose header points outside the slot, discarded
	TxFrames    uint64 // frames handed to the kernel
	TxBytes     uint64
	TxErrors    uint64 // failed WriteBatch calls
	// KernelPackets and KernelDrops are PACKET_STATISTICS of the receive
	// socket: frames the kernel tried to queue to it (drops included) and
	// frames it dropped because the receive buffer was full. Frames the
	// receive filter rejects count in neither. A drop may have been a
	// TX-status echo: treat KernelDrops growing as possibly lost echoes
	// (in-flight records then complete by timeout, not by status).
	KernelPackets uint64
	KernelDrops   uint64
}

// KernelDrops is the number of frames the kernel dropped at the receive
// socket (PACKET_STATISTICS), some of which may have been TX-status
// echoes, for the daemon's books.
func (d *Device) KernelDrops() uint64 { return d.Stats().KernelDrops }
