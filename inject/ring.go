package inject

import (
	"encoding/binary"
	"sync/atomic"
	"unsafe"
)

// The layout of a TPACKET_V2 ring slot (linux/if_packet.h): a tpacket2_hdr,
// then the sender's sockaddr_ll, then the frame at the header's mac offset.
const (
	slotStatus  = 0  // tp_status, uint32: who owns the slot
	slotLen     = 4  // tp_len, uint32: the frame's length on the wire
	slotSnaplen = 8  // tp_snaplen, uint32: the bytes in the slot
	slotMac     = 12 // tp_mac, uint16: the frame's offset in the slot
	slotPkttype = 32 + 10
	// slotHdrLen is TPACKET2_HDRLEN: the header, aligned to 16, and the
	// address. No frame starts before it.
	slotHdrLen = 32 + 20

	statusKernel = 0 // TP_STATUS_KERNEL: the kernel may fill the slot
	statusUser   = 1 // TP_STATUS_USER: a frame waits in the slot

	pkttypeOutgoing = 4 // PACKET_OUTGOING
)

// slotFrame reads the header of a slot the kernel handed over: the frame,
// its packet type, whether the slot cut it (it was longer and fills the
// slot to its end: the receive filter's cut of an echo ends earlier), and
// false when the header points outside the slot. The frame's capacity ends
// with it.
func slotFrame(slot []byte) (frame []byte, pkttype uint8, cut, ok bool) {
	if len(slot) < slotHdrLen {
		return nil, 0, false, false
	}
	ne := binary.NativeEndian
	mac := int(ne.Uint16(slot[slotMac:]))
	snap := ne.Uint32(slot[slotSnaplen:])
	if mac < slotHdrLen || uint64(mac)+uint64(snap) > uint64(len(slot)) {
		return nil, 0, false, false
	}
	end := mac + int(snap)
	cut = end == len(slot) && ne.Uint32(slot[slotLen:]) > snap
	return slot[mac:end:end], slot[slotPkttype], cut, true
}

// ring walks a TPACKET_V2 receive ring in mem: slots of frameSize bytes,
// perBlock of them at the start of each blockSize-byte block. The kernel
// fills the slots in order and hands each over by setting its status to
// statusUser; the reader takes them in the same order and hands each back
// by setting statusKernel. A slot still held when the kernel comes round to
// it again costs the frame (a drop in PACKET_STATISTICS), never a wait.
//
// One goroutine reads (next, skip, hold); another may release the held
// slots, oldest first. Slot numbers are sequence numbers that never wrap in
// practice; seq % slots is the slot.
type ring struct {
	mem                 []byte
	frameSize, perBlock int
	blockSize           int
	slots               int
	head                uint64 // the next slot to read; reader only

	// held lists, oldest first, the slots handed out as views and not yet
	// released: held[i % slots] for heldOut <= i < heldIn.
	held            []uint64
	heldIn, heldOut atomic.Uint64
}

func newRing(mem []byte, frameSize, blockSize, blocks int) *ring {
	perBlock := blockSize / frameSize
	n := perBlock * blocks
	return &ring{mem: mem, frameSize: frameSize, perBlock: perBlock, blockSize: blockSize, slots: n,
		held: make([]uint64, n)}
}

// slot returns the bytes of slot seq.
func (r *ring) slot(seq uint64) []byte {
	i := int(seq % uint64(r.slots))
	off := i/r.perBlock*r.blockSize + i%r.perBlock*r.frameSize
	return r.mem[off : off+r.frameSize : off+r.frameSize]
}

// status is the slot's tp_status word, shared with the kernel.
func status(slot []byte) *uint32 { return (*uint32)(unsafe.Pointer(&slot[slotStatus])) }

// next returns the slot at the head if the kernel has filled it, and
// whether the head is blocked by a slot the reader still holds (a lap
// ahead of the oldest view not yet released).
func (r *ring) next() (slot []byte, blocked bool) {
	if out := r.heldOut.Load(); out != r.heldIn.Load() && r.held[out%uint64(r.slots)]+uint64(r.slots) <= r.head {
		return nil, true
	}
	s := r.slot(r.head)
	if atomic.LoadUint32(status(s))&statusUser == 0 {
		return nil, false
	}
	return s, false
}

// skip hands the head slot straight back to the kernel and moves on.
func (r *ring) skip(slot []byte) {
	atomic.StoreUint32(status(slot), statusKernel)
	r.head++
}

// hold keeps the head slot until release and moves on.
func (r *ring) hold() {
	in := r.heldIn.Load()
	r.held[in%uint64(r.slots)] = r.head
	r.heldIn.Store(in + 1)
	r.head++
}

// release hands the n oldest held slots back to the kernel (fewer if fewer
// are held).
func (r *ring) release(n int) {
	out, in := r.heldOut.Load(), r.heldIn.Load()
	k := min(uint64(max(n, 0)), in-out)
	for i := range k {
		atomic.StoreUint32(status(r.slot(r.held[(out+i)%uint64(r.slots)])), statusKernel)
	}
	r.heldOut.Store(out + k)
}

// holding returns how many slots are held.
func (r *ring) holding() int { return int(r.heldIn.Load() - r.heldOut.Load()) }
